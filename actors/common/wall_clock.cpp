#include "actors/common/wall_clock.hpp"

#include <chrono>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/defaults.hpp"

#include "messages/time_limits.hpp"

namespace parley::actors {

using messages::saturating_add;
using messages::saturating_sub;

namespace {

/// One instant read off the actor clock and the system clock, once per
/// process: every wall_clock maps time the same way, so the times of two
/// actors compare to the microsecond (each reading its own origin put them up
/// to a millisecond apart).
struct real_time_origin {
  wall_clock::time_point steady;
  std::int64_t unix_ms;
};

const real_time_origin& origin_of(const caf::actor_clock& clock) {
  static const real_time_origin origin{
      clock.now(), std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count()};
  return origin;
}

} // namespace

bool simulated_time(caf::actor_system& sys) {
  return caf::get_or(sys.config(), "scheduler.policy",
                     caf::defaults::scheduler::policy) == caf::atom("testing");
}

wall_clock::wall_clock(caf::actor_system& sys) : clock_(&sys.clock()) {
  if (simulated_time(sys)) {
    origin_ = time_point{};
    origin_ms_ = simulated_epoch_ms;
  } else {
    const auto& origin = origin_of(*clock_);
    origin_ = origin.steady;
    origin_ms_ = origin.unix_ms;
  }
}

std::int64_t wall_clock::now_ms() const {
  auto elapsed = saturating_sub(clock_->now(), origin_);
  return saturating_add(
      origin_ms_,
      std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count());
}

std::int64_t wall_clock::now_us() const {
  auto elapsed = saturating_sub(clock_->now(), origin_);
  return saturating_add(
      messages::saturating_mul(origin_ms_, 1000),
      std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count());
}

wall_clock::time_point wall_clock::at(std::int64_t ms) const {
  return saturating_add(origin_,
                        messages::saturating_milliseconds<time_point::duration>(
                            saturating_sub(ms, origin_ms_)));
}

caf::actor_clock::duration_type wall_clock::until(std::int64_t ms) const {
  auto delta = saturating_sub(at(ms), clock_->now());
  return delta.count() > 0 ? delta : caf::actor_clock::duration_type{0};
}

} // namespace parley::actors
