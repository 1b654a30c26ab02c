#pragma once

#include <string>

#include <sys/types.h>

namespace parley::test {

/// The fake LLM provider (tools/fake_llm) running on a loopback port with a
/// script, for as long as this object lives (killed by its PID at the end).
class fake_llm {
public:
  /// Starts the server with `script` (JSON text); waits at most 5 s for it to
  /// print its port.
  explicit fake_llm(const std::string& script);
  ~fake_llm();

  fake_llm(const fake_llm&) = delete;
  fake_llm& operator=(const fake_llm&) = delete;

  /// "http://127.0.0.1:PORT".
  std::string base_url() const;

  /// GET `path` from the server (e.g. "/requests"), bounded by 5 s.
  std::string get(const std::string& path) const;

  int port() const noexcept { return port_; }

private:
  pid_t pid_ = -1;
  int port_ = 0;
};

} // namespace parley::test
