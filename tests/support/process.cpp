#include "support/process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <fcntl.h>
#include <iterator>
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

namespace {

/// How often the bounded waits look again.
constexpr auto poll_interval = std::chrono::milliseconds(5);

int next_process_number() {
  static int n = 0;
  return ++n;
}

} // namespace

background_process::background_process(const std::vector<std::string>& argv) {
  output_file_ = std::string{P_tmpdir} + "/parley-test-" + std::to_string(getpid())
                 + "-process-" + std::to_string(next_process_number()) + ".out";
  std::vector<char*> args;
  for (const auto& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  auto parent = getpid();
  pid_ = fork();
  if (pid_ < 0)
    throw std::runtime_error("cannot start " + argv[0]);
  if (pid_ == 0) {
    // Only async-signal-safe calls until exec: the test is multithreaded.
    // The child is killed when the test's thread that started it ends, so a
    // test that aborts (a failed REQUIRE on an nlohmann assertion, a
    // sanitizer report) leaves no serve behind.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    auto out = open(output_file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0)
      _exit(127);
    execve(args[0], args.data(), environ);
    _exit(127);
  }
}

background_process::~background_process() {
  if (!reaped_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  std::remove(output_file_.c_str());
}

std::string background_process::output() const {
  std::ifstream in{output_file_};
  return std::string{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

bool background_process::wait_for_output(const std::string& text,
                                         std::chrono::milliseconds limit) const {
  auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (output().find(text) != std::string::npos)
      return true;
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(poll_interval);
  }
}

std::optional<int> background_process::wait_exit(std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      reaped_ = true;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() >= deadline)
      return std::nullopt;
    std::this_thread::sleep_for(poll_interval);
  }
}

void background_process::signal(int sig) const {
  kill(pid_, sig);
}

std::string background_process::stacks() const {
  // run_command runs its command under `timeout`: a shell for `command -v`.
  if (run_command("sh -c 'command -v gdb'", 10).exit_code != 0)
    return "(no stacks: gdb is not installed)";
  return run_command("gdb -batch -p " + std::to_string(pid_) +
                         " -ex 'thread apply all bt'",
                     120)
      .output;
}

std::string background_process::describe_stuck() const {
  return "its output:\n" + output() + "\nits threads:\n" + stacks();
}

} // namespace parley::test
