#pragma once

#include <string>

namespace parley::test {

/// What a finished command printed (standard output and error together) and
/// its exit code.
struct process_result {
  int exit_code = -1;
  std::string output;
};

/// Runs `command` through the shell, bounded by `timeout_s` seconds (coreutils
/// `timeout`), and returns what it printed and how it exited.
process_result run_command(const std::string& command, int timeout_s = 60);

/// Runs the `parley` binary under test with `arguments`.
process_result run_parley(const std::string& arguments, int timeout_s = 60);

/// Writes `text` to a fresh file in the temporary directory, named after
/// `name`, and returns its path.
std::string write_temp_file(const std::string& name, const std::string& text);

} // namespace parley::test
