// parley: the Parley command line (demo, run).
#include "runtime/cli.hpp"

int main(int argc, char** argv) {
  return parley::runtime::run_cli(argc, argv);
}
