#pragma once

#include <chrono>
#include <cstddef>

namespace parley::service {

/// Which connections the server takes (the acceptor applies it on its
/// strand; nothing here touches a socket). Up to `max_connections` ordinary
/// connections; past them one more, the health slot, whose connection may
/// ask only `/healthz` or `/readyz` once (route_table.hpp's health_slot):
/// so a full server still tells a health check that it lives.
class admission {
public:
  /// Where an accepted connection goes.
  enum class slot { ordinary, health };

  explicit admission(std::size_t max_connections) : max_(max_connections) {}

  /// Whether to accept now: an ordinary connection has room, or the health
  /// slot is free. When not, the next connection waits in the kernel's
  /// queue until one ends.
  bool may_accept() const noexcept { return open_ < max_ || !health_busy_; }

  /// Takes a slot for the connection just accepted: an ordinary one while
  /// there is room, else the health slot (only when `may_accept`).
  slot admit() noexcept;

  /// Takes the health slot whatever the count (the process ran out of
  /// descriptors below the cap; only when it is free).
  slot admit_health() noexcept;

  /// Frees the slot of a connection that ended.
  void release(slot x) noexcept;

  bool health_busy() const noexcept { return health_busy_; }

  /// Ordinary connections open.
  std::size_t open() const noexcept { return open_; }

private:
  std::size_t max_;
  std::size_t open_ = 0;
  bool health_busy_ = false;
};

/// The pause before accepting again after an accept failed for want of
/// descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM: retrying at once
/// would only spin, the connection waits in the kernel's queue): 50 ms,
/// doubling up to 1 s; a successful accept starts again from 50 ms.
class accept_backoff {
public:
  static constexpr std::chrono::milliseconds first{50};
  static constexpr std::chrono::milliseconds longest{1000};

  /// The pause to take now; the next one is twice as long (at most `longest`).
  std::chrono::milliseconds next() noexcept;

  void reset() noexcept { pause_ = first; }

private:
  std::chrono::milliseconds pause_ = first;
};

} // namespace parley::service
