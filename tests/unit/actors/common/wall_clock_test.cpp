#include "actors/common/wall_clock.hpp"

#include <chrono>
#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"

using parley::actors::wall_clock;

namespace {

constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();
constexpr auto int64_min = std::numeric_limits<std::int64_t>::min();

using time_point = wall_clock::time_point;
using duration = caf::actor_clock::duration_type;

/// An actor system on CAF's test coordinator: its clock stands at zero.
struct simulated_system {
  simulated_system() : sys(configured(cfg)) {}

  static caf::actor_system_config& configured(caf::actor_system_config& cfg) {
    cfg.set("scheduler.policy", caf::atom("testing"));
    return cfg;
  }

  caf::actor_system_config cfg;
  caf::actor_system sys;
};

} // namespace

TEST_CASE("the simulated clock maps its zero to the simulated epoch", "[unit]") {
  simulated_system s;
  wall_clock clock{s.sys};
  CHECK(clock.now_ms() == wall_clock::simulated_epoch_ms);
  CHECK(clock.now_us() == wall_clock::simulated_epoch_ms * 1000);
  CHECK(clock.at(wall_clock::simulated_epoch_ms) == time_point{});
  CHECK(clock.at(wall_clock::simulated_epoch_ms + 1500) ==
        time_point{} + std::chrono::milliseconds(1500));
  CHECK(clock.until(wall_clock::simulated_epoch_ms + 1500) ==
        clock.at(wall_clock::simulated_epoch_ms + 1500) - s.sys.clock().now());
  CHECK(clock.until(wall_clock::simulated_epoch_ms - 1500) == duration{0});
}

TEST_CASE("times beyond the clock's range saturate instead of wrapping", "[unit]") {
  simulated_system s;
  wall_clock clock{s.sys};
  CHECK(clock.at(int64_max) == time_point::max());
  CHECK(clock.at(int64_min) == time_point::min());
  // 9223372036855 ms after the epoch no longer fits in nanoseconds.
  CHECK(clock.at(wall_clock::simulated_epoch_ms + 9223372036855) == time_point::max());
  CHECK(clock.until(int64_max) == time_point::max() - s.sys.clock().now());
  CHECK(clock.until(int64_min) == duration{0});
}

TEST_CASE("a real-time clock saturates as well", "[unit]") {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  wall_clock clock{sys};
  CHECK(clock.at(int64_max) == time_point::max());
  CHECK(clock.at(int64_min) < clock.at(0));
  CHECK(clock.until(int64_max) > std::chrono::hours(24 * 365 * 100));
  CHECK(clock.until(int64_min) == duration{0});
}
