#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace parley::cluster {

/// What a node's connection guard has seen since it started.
struct connection_counts {
  /// Connections open now.
  std::int64_t open = 0;
  /// Connections accepted (and held) in all.
  std::int64_t accepted = 0;
  /// Connections closed in all, whatever the reason (the four below and
  /// those the peer or CAF closed).
  std::int64_t closed = 0;
  /// Closed on accept because `max_connections` were open.
  std::int64_t refused_at_cap = 0;
  /// Closed before their handshake completed, by TLS (no certificate, one
  /// from another CA, not TLS at all) or by the peer.
  std::int64_t failed_handshake = 0;
  /// Closed by the guard: no completed handshake within the handshake timeout.
  std::int64_t handshake_timeouts = 0;
  /// Closed by the guard: silent for the idle timeout.
  std::int64_t idle_timeouts = 0;
};

/// `connections open=1 accepted=4 closed=3 (refused_at_cap=0
/// failed_handshake=2 handshake_timeouts=1 idle_timeouts=0)`.
std::string to_string(const connection_counts& x);

/// Keeps a node's accepted connections within a cap and two deadlines, and
/// counts what happened to them.
///
/// The node's transport (node_transport.hpp) asks `admit` for each accepted
/// socket, reports the first byte of the peer's application data (after
/// TLS: the handshake, client certificate included, has passed) and every
/// later read through the `connection` it got, and drops the `connection`
/// when the socket closes. `sweep`, called periodically from another
/// thread, shuts down (`shutdown(2)`) the socket of every connection past a
/// deadline; the transport then sees end-of-file and closes it the way it
/// closes any connection, so CAF keeps owning every descriptor.
class connection_guard {
public:
  using clock = std::chrono::steady_clock;

  struct limits {
    std::int64_t max_connections = 64;
    /// From accept to the first byte of application data.
    clock::duration handshake_timeout = std::chrono::seconds(5);
    /// From the last byte received.
    clock::duration idle_timeout = std::chrono::minutes(2);
  };

  /// One admitted connection; destroying it reports the socket closed.
  class connection {
  public:
    connection(std::shared_ptr<connection_guard> guard, int fd, clock::time_point now);
    ~connection();

    connection(const connection&) = delete;
    connection& operator=(const connection&) = delete;

    /// The peer's application data arrived (the first call ends the
    /// handshake).
    void received(clock::time_point now) noexcept;

  private:
    friend class connection_guard;

    std::shared_ptr<connection_guard> guard_;
    int fd_;
    clock::time_point accepted_at_;
    std::atomic<clock::rep> last_received_;
    std::atomic<bool> established_{false};
    /// Set by sweep when it shut the socket down (under the guard's mutex).
    bool timed_out_ = false;
  };

  explicit connection_guard(limits x);

  /// Takes the socket `fd` just accepted, or returns null (counting it
  /// refused) when `max_connections` are open; the caller then closes it.
  /// The guard is shared with its connections, hence the `self`.
  static std::unique_ptr<connection>
  admit(const std::shared_ptr<connection_guard>& self, int fd, clock::time_point now);

  /// Shuts down the socket of every connection past a deadline at `now`.
  void sweep(clock::time_point now);

  connection_counts counts() const;

  const limits& configured() const noexcept { return limits_; }

private:
  void closed(connection* x);

  const limits limits_;
  mutable std::mutex mutex_;
  std::vector<connection*> open_;
  connection_counts counts_;
};

} // namespace parley::cluster
