#include "support/fake_llm.hpp"

#include <chrono>
#include <csignal>
#include <stdexcept>
#include <string>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/process.hpp"

namespace parley::test {

fake_llm::fake_llm(const std::string& script) {
  auto path = write_temp_file(
      "fake-llm-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".json",
      script);
  int out[2];
  if (pipe(out) != 0)
    throw std::runtime_error("pipe failed");
  pid_ = fork();
  if (pid_ < 0)
    throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    execl(PARLEY_FAKE_LLM, PARLEY_FAKE_LLM, "--script", path.c_str(), "--port", "0",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (line.find('\n') == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, 100) <= 0)
      continue;
    char buf[128];
    auto n = read(out[0], buf, sizeof buf);
    if (n <= 0)
      break;
    line.append(buf, static_cast<std::size_t>(n));
  }
  close(out[0]);
  auto at = line.find("listening on ");
  if (at == std::string::npos) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    throw std::runtime_error("the fake LLM did not start: " + line);
  }
  port_ = std::stoi(line.substr(at + 13));
}

fake_llm::~fake_llm() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::string fake_llm::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

std::string fake_llm::get(const std::string& path) const {
  return run_command("curl -s --max-time 5 " + base_url() + path, 10).output;
}

} // namespace parley::test
