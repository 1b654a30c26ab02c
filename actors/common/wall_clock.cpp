#include "actors/common/wall_clock.hpp"

#include <chrono>
#include <ratio>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/defaults.hpp"

#include "messages/time_limits.hpp"

namespace parley::actors {

using messages::saturating_add;
using messages::saturating_sub;

namespace {

using time_point = wall_clock::time_point;
using duration = caf::actor_clock::duration_type;

/// How many times `read_origin` reads at most, and a gap between its two
/// readings of the actor clock that it takes at once.
constexpr int origin_attempts = 8;
constexpr auto close_enough = std::chrono::microseconds(2);

/// Converts `us` microseconds to the actor clock's duration, clamped to its
/// range.
duration saturating_microseconds(std::int64_t us) {
  using ticks_per_us = std::ratio_divide<std::micro, duration::period>;
  static_assert(ticks_per_us::den == 1, "the actor clock must count in µs or finer");
  return duration{messages::saturating_mul(us, ticks_per_us::num)};
}

/// The origin of every real-time wall_clock of this process, read once:
/// every wall_clock maps time the same way, so the times of two actors
/// compare to the microsecond.
const clock_origin& process_origin(const caf::actor_clock& clock) {
  static const clock_origin origin = read_origin(clock);
  return origin;
}

} // namespace

clock_origin read_origin(const caf::actor_clock& clock) {
  clock_origin best;
  auto best_gap = duration::max();
  for (int i = 0; i < origin_attempts && best_gap > close_enough; ++i) {
    auto before = clock.now();
    auto system_now = std::chrono::system_clock::now();
    auto after = clock.now();
    auto gap = after - before;
    if (gap < best_gap) {
      best_gap = gap;
      best.steady = before + gap / 2;
      best.unix_us = std::chrono::duration_cast<std::chrono::microseconds>(
                         system_now.time_since_epoch())
                         .count();
    }
  }
  return best;
}

bool simulated_time(caf::actor_system& sys) {
  return caf::get_or(sys.config(), "scheduler.policy",
                     caf::defaults::scheduler::policy) == caf::atom("testing");
}

wall_clock::wall_clock(caf::actor_system& sys)
    : wall_clock(sys.clock(),
                 simulated_time(sys)
                     ? clock_origin{time_point{}, simulated_epoch_ms * 1000}
                     : process_origin(sys.clock())) {}

wall_clock::wall_clock(const caf::actor_clock& clock, clock_origin origin)
    : clock_(&clock), origin_(origin.steady), origin_us_(origin.unix_us) {}

std::int64_t wall_clock::now_ms() const {
  // From the microseconds: an origin kept to the millisecond would map the
  // same instant up to a millisecond apart in two processes.
  return now_us() / 1000;
}

std::int64_t wall_clock::now_us() const {
  auto elapsed = saturating_sub(clock_->now(), origin_);
  return saturating_add(
      origin_us_,
      std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count());
}

time_point wall_clock::at(std::int64_t ms) const {
  return saturating_add(origin_, saturating_microseconds(saturating_sub(
                                     messages::saturating_mul(ms, 1000), origin_us_)));
}

duration wall_clock::until(std::int64_t ms) const {
  auto delta = saturating_sub(at(ms), clock_->now());
  return delta.count() > 0 ? delta : duration{0};
}

} // namespace parley::actors
