#include "support/process.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace parley::test {

process_result run_command(const std::string& command, int timeout_s) {
  auto bounded = "timeout " + std::to_string(timeout_s) + " " + command + " 2>&1";
  auto* pipe = popen(bounded.c_str(), "r");
  if (pipe == nullptr)
    throw std::runtime_error("cannot run: " + command);
  process_result result;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0)
    result.output.append(buf, n);
  auto status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

process_result run_parley(const std::string& arguments, int timeout_s) {
  return run_command(std::string{PARLEY_BINARY} + " " + arguments, timeout_s);
}

std::string write_temp_file(const std::string& name, const std::string& text) {
  auto path =
      std::string{P_tmpdir} + "/parley-test-" + std::to_string(getpid()) + "-" + name;
  std::ofstream out{path};
  out << text;
  return path;
}

} // namespace parley::test
