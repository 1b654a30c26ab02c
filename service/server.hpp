#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "service/message.hpp"

namespace parley::service {

/// An HTTP/1.1 server on Boost.Beast (asio): a small, fixed pool of I/O
/// threads of its own (never CAF's scheduler threads) serves every
/// connection asynchronously, with keep-alive; never a thread per connection.
/// Each request goes to the handler, whose answer is written back on the
/// connection's strand. Bodies over `max_body_bytes` are refused (413,
/// E031) before they are read in full, headers over Beast's 8 KiB (431,
/// E036), an HTTP/1.1 request without exactly one `Host` (400, E001). `HEAD`
/// is answered as `GET` without the body (an event stream: its headers
/// only). With a `token`, every request but those of the routes that need
/// none (route_table.hpp: `/healthz`, `/readyz` and the dashboard's files)
/// must carry `Authorization: Bearer TOKEN` (bearer.hpp; else 401, E029);
/// the third failure on one connection closes it.
///
/// No request stops the server: whatever a request throws while it is read,
/// routed or answered ends at its connection, as 500 E037 when nothing was
/// sent for it yet, else by closing that connection.
///
/// At most `max_connections` connections are open at once; past them one
/// more, the health slot (admission.hpp), may ask only the routes of the
/// health slot (route_table.hpp: `/healthz`, `/readyz`; anything else: 503
/// E030 and close). An accept that fails for
/// want of descriptors is retried after a pause (50 ms doubling to 1 s), not
/// at once; a spare descriptor, given up for it, still lets the health slot
/// take a connection when the process is at its limit.
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
    /// Connections open at once, the health slot apart.
    std::size_t max_connections = 10000;
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

} // namespace parley::service
