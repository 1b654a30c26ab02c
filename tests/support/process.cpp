#include "support/process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <spawn.h>
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
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output_file_.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const auto& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  auto rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw std::runtime_error("cannot start " + argv[0]);
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

} // namespace parley::test
