#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/http/message.hpp"

namespace parley::runtime::http {

/// An HTTP/1.1 server on Boost.Beast (asio): a small, fixed pool of I/O
/// threads of its own (never CAF's scheduler threads) serves every
/// connection asynchronously, with keep-alive; never a thread per connection.
/// Each request goes to the handler, whose answer is written back on the
/// connection's strand. Bodies over `max_body_bytes` are refused (413,
/// E031) before they are read in full; with a `token`, every request but
/// `/healthz`, `/readyz` and the dashboard's static files (dashboard.hpp)
/// must carry `Authorization: Bearer TOKEN` (401, E029).
///
/// A route may answer with an event stream (response::stream): the server
/// sends the `text/event-stream` headers and hands the route an
/// event_stream to push Server-Sent-Event frames into from any thread. Each
/// stream has a bounded queue (`stream_queue_bytes`: over it the client is
/// too slow, and its connection is closed and counted as dropped), a
/// keep-alive comment every `stream_keepalive`, and ends when the client
/// closes its side or the server stops.
class server {
public:
  struct options {
    std::string host = "127.0.0.1";
    /// 0: any free port (`start` returns it).
    std::uint16_t port = 8080;
    std::size_t io_threads = 2;
    std::size_t max_body_bytes = 65536;
    /// Empty: no authentication (only allowed on loopback, see serve.hpp).
    std::string token;
    /// A keep-alive connection idle this long is closed.
    std::chrono::milliseconds idle_timeout{30000};
    /// An event stream sends `: keep-alive` this often.
    std::chrono::milliseconds stream_keepalive{15000};
    /// Bytes an event stream may have queued and not yet written.
    std::size_t stream_queue_bytes = 4 * 1024 * 1024;
  };

  server(options opts, handler_function handler);
  ~server();

  server(const server&) = delete;
  server& operator=(const server&) = delete;

  /// Binds, listens and starts the I/O threads; returns the port. Throws
  /// std::runtime_error naming the address when it cannot listen.
  std::uint16_t start();

  /// Stops accepting, closes idle connections, lets the requests in flight
  /// be answered (at most `grace`), then stops the I/O threads. Event
  /// streams are not requests in flight: they close at once, and take no
  /// more frames. Returns how many requests were still unanswered at the end
  /// of `grace`.
  std::size_t stop(std::chrono::milliseconds grace);

  /// Requests read and not yet answered.
  std::size_t in_flight() const noexcept;

  /// Event streams open now.
  std::size_t open_streams() const;

  /// Event streams closed because their client did not keep up.
  std::size_t dropped_streams() const noexcept;

  /// The acceptor, its I/O threads and connections (server.cpp).
  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace parley::runtime::http
