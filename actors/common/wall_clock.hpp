#pragma once

#include <cstdint>

#include "caf/actor_clock.hpp"
#include "caf/fwd.hpp"

namespace parley::actors {

/// Whether `sys` runs on CAF's test coordinator (simulated time): its
/// scheduled actors run only when the runner steps them.
bool simulated_time(caf::actor_system& sys);

/// One instant as the actor clock and as Unix time (microseconds) read it.
struct clock_origin {
  caf::actor_clock::time_point steady;
  std::int64_t unix_us = 0;
};

/// Reads `clock` and the system clock at one instant: the system clock
/// between two readings of `clock`, matched to their midpoint, and read again
/// (a few times at most) if something came in between, keeping the closest.
clock_origin read_origin(const caf::actor_clock& clock);

/// Maps an actor system's clock to Unix milliseconds for records and events.
///
/// Actors never read the wall clock directly: time comes from the actor clock,
/// so that with simulated time (CAF's test coordinator) a 120 s negotiation
/// runs in microseconds. In simulated time the clock starts at zero, which this
/// maps to `simulated_epoch_ms`, so a run's output is the same every time.
/// Every conversion saturates (messages/time_limits.hpp): no input wraps.
///
/// In real time the origin is read once per process (`read_origin`) and
/// kept to the microsecond: processes on one host (a run and the node its
/// rooms are placed on) then map one instant to the same Unix time, so an
/// event a node stamps after a run started never reads as before it.
class wall_clock {
public:
  using time_point = caf::actor_clock::time_point;

  /// 2026-01-01T00:00:00Z: what a simulated clock's zero reads as.
  static constexpr std::int64_t simulated_epoch_ms = 1767225600000;

  explicit wall_clock(caf::actor_system& sys);

  /// Maps `clock`, whose time `origin.steady` is Unix time `origin.unix_us`.
  wall_clock(const caf::actor_clock& clock, clock_origin origin);

  /// Returns the current time in Unix milliseconds.
  std::int64_t now_ms() const;

  /// Returns the current time in Unix microseconds.
  std::int64_t now_us() const;

  /// Returns the actor clock's time point for Unix milliseconds `ms`; a time
  /// beyond the clock's range reads as the range's end (never wraps).
  time_point at(std::int64_t ms) const;

  /// Returns how long from now until Unix milliseconds `ms` (zero if past,
  /// saturating like `at`).
  caf::actor_clock::duration_type until(std::int64_t ms) const;

private:
  const caf::actor_clock* clock_;
  time_point origin_;
  std::int64_t origin_us_;
};

} // namespace parley::actors
