// parley: the Parley command line (demo, run).
#include "cli/cli.hpp"

int main(int argc, char** argv) {
  return parley::cli::run_cli(argc, argv);
}
