#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parley::test {

/// One Server-Sent Event as a client parses it: its `id:`, `event:` and
/// `data:` lines (the data parsed as JSON; null when it is not).
struct sse_event {
  std::string id;
  std::string type;
  std::string data_text;
  nlohmann::json data;
};

/// A client of one event stream of a `parley serve` on loopback, on a plain
/// socket: it reads only when told to (so that a test can play a client
/// that does not keep up), and every wait is bounded.
class sse_client {
public:
  /// Connects and sends `GET path`, with `Last-Event-ID` when not empty;
  /// `receive_buffer` > 0 sets the socket's receive buffer (a slow client).
  sse_client(int port, const std::string& path, const std::string& last_event_id = {},
             int receive_buffer = 0);
  ~sse_client();

  sse_client(const sse_client&) = delete;
  sse_client& operator=(const sse_client&) = delete;

  /// Reads until the response's header block is in (at most `limit`);
  /// returns it, empty when it did not come.
  std::string headers(std::chrono::milliseconds limit = std::chrono::seconds(10));

  /// Reads until `done(events())` holds, the server closes or `limit`
  /// passes; returns whether `done` held.
  bool read_until(const std::function<bool(const std::vector<sse_event>&)>& done,
                  std::chrono::milliseconds limit = std::chrono::seconds(20));

  /// Reads until the server closes the connection (true) or `limit` passes.
  bool read_until_closed(std::chrono::milliseconds limit = std::chrono::seconds(10));

  /// The events parsed so far, in order.
  const std::vector<sse_event>& events() const { return events_; }

  /// The body received so far, as sent.
  const std::string& body() const { return body_; }

  /// Comment lines (`: keep-alive`) received so far.
  std::size_t comments() const { return comments_; }

  /// Closes the connection (a client that goes away).
  void close();

private:
  /// Reads what is there within `wait`; false once the server closed.
  bool read_some(std::chrono::milliseconds wait);
  void parse();

  int fd_ = -1;
  bool closed_ = false;
  std::string head_;
  bool head_done_ = false;
  std::string body_;
  std::size_t parsed_ = 0;
  std::vector<sse_event> events_;
  std::size_t comments_ = 0;
};

} // namespace parley::test
