#pragma once

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

namespace parley::test {

/// One HTTP answer as it came over the wire.
struct raw_answer {
  /// 0 when no complete answer came (the connection closed, or the wait
  /// ran out).
  int status = 0;
  /// The status line and headers, as sent.
  std::string head;
  std::string body;

  /// The value of header `name` (case-insensitive); empty when absent.
  std::string header(const std::string& name) const;

  /// The body parsed as JSON (discarded when it is not).
  nlohmann::json json() const;
};

/// A loopback TCP connection for raw HTTP bytes: what a client library would
/// not send (no `Host`, oversized headers, any `Authorization`) and what it
/// would hide (the bytes after a `HEAD` answer, a close). Every wait is
/// bounded by its caller's limit.
class raw_connection {
public:
  /// Connects to 127.0.0.1:`port` (bounded by 5 s); `connected()` says
  /// whether it did.
  explicit raw_connection(int port);
  ~raw_connection();

  raw_connection(const raw_connection&) = delete;
  raw_connection& operator=(const raw_connection&) = delete;

  bool connected() const noexcept { return fd_ >= 0; }

  /// Sends all of `bytes`; false when the connection is gone.
  bool send(const std::string& bytes);

  /// Reads the next answer: its head and, unless `bodyless` (the answer to a
  /// `HEAD`, or an event stream's headers), a body of its Content-Length.
  raw_answer read_answer(std::chrono::milliseconds limit, bool bodyless = false);

  /// Whether the peer closed the connection within `limit` without sending
  /// anything more.
  bool closed_by_peer(std::chrono::milliseconds limit);

  /// Bytes received and not yet part of an answer.
  const std::string& unread() const noexcept { return pending_; }

private:
  /// Reads what arrives within `limit` into `pending_`; false on close,
  /// error or when nothing came in time.
  bool receive(std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;
  std::string pending_;
  bool peer_closed_ = false;
};

} // namespace parley::test
