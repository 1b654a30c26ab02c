#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

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

/// A process started in the background with its output (standard output and
/// error) going to a file; killed with SIGKILL, by PID, when this object goes
/// away and it still runs, and by the kernel when the thread that started it
/// ends (the test aborted). Every wait is bounded by the caller's limit.
class background_process {
public:
  /// Starts `argv[0]` with `argv`.
  explicit background_process(const std::vector<std::string>& argv);
  ~background_process();

  background_process(const background_process&) = delete;
  background_process& operator=(const background_process&) = delete;

  pid_t pid() const noexcept {
    return pid_;
  }

  /// Everything it printed so far.
  std::string output() const;

  /// Waits until its output contains `text`; returns false after `limit`.
  bool wait_for_output(const std::string& text, std::chrono::milliseconds limit) const;

  /// Waits for it to exit; returns its exit code (128 + signal when killed),
  /// or nothing if it still runs after `limit`.
  std::optional<int> wait_exit(std::chrono::milliseconds limit);

  /// Sends `sig` to it.
  void signal(int sig) const;

  /// Its threads' stacks as gdb prints them, or why there are none (no gdb):
  /// for a process that does not exit, which wait holds it.
  std::string stacks() const;

  /// Its output and `stacks()`, for a process that did not exit in time.
  std::string describe_stuck() const;

private:
  pid_t pid_ = -1;
  std::string output_file_;
  bool reaped_ = false;
};

} // namespace parley::test
