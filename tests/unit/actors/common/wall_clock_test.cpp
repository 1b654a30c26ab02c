#include "actors/common/wall_clock.hpp"

#include <chrono>
#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"
#include "caf/detail/test_actor_clock.hpp"

namespace unit_actors_common_wall_clock_test {

using namespace std::chrono_literals;
using parley::actors::clock_origin;
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

/// The Unix time in microseconds at the simulated clock's zero: the host's
/// system clock, which every process on it reads.
constexpr std::int64_t host_unix_us = 1767225600005250;

/// The origin a process on that host reads `at` after the clock's zero
/// (before it when negative).
clock_origin read_at(std::chrono::microseconds at) {
  return {time_point{} + at, host_unix_us + at.count()};
}

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

TEST_CASE("an event a node stamps after a run started never reads as before it",
          "[unit]") {
  // The node started 4.35 ms before the run: it read its origin at .900 of a
  // millisecond, the run at .200. Kept to the millisecond, the node's origin
  // read 0.9 ms early and the run's 0.2 ms: a `negotiation.started` the node
  // stamped 50 µs after the run's start read 1 ms before it ("t_ms":-1).
  simulated_system s;
  auto& now = dynamic_cast<caf::detail::test_actor_clock&>(s.sys.clock()).current_time;
  wall_clock node{s.sys.clock(), read_at(-4350us)};
  wall_clock run{s.sys.clock(), read_at(-50us)};
  auto start_ms = run.now_ms();
  CHECK(start_ms == host_unix_us / 1000);
  now += 50us;
  CHECK(node.now_ms() - start_ms == 0);
  CHECK(node.now_us() == host_unix_us + 50);
}

TEST_CASE("two processes map one instant to the same time, whenever each read its "
          "origin",
          "[unit]") {
  simulated_system s;
  auto& now = dynamic_cast<caf::detail::test_actor_clock&>(s.sys.clock()).current_time;
  std::int64_t disagreements = 0;
  for (auto node_at = -9000us; node_at < -8000us; node_at += 7us) {
    wall_clock node{s.sys.clock(), read_at(node_at)};
    for (auto run_at = -1000us; run_at < 0us; run_at += 11us) {
      wall_clock run{s.sys.clock(), read_at(run_at)};
      for (auto instant : {0us, 1us, 499us, 999us}) {
        now = time_point{} + instant;
        if (node.now_ms() != run.now_ms() || node.now_us() != run.now_us() ||
            node.at(run.now_ms()) != run.at(run.now_ms()))
          ++disagreements;
      }
    }
  }
  CHECK(disagreements == 0);
}

} // namespace unit_actors_common_wall_clock_test
