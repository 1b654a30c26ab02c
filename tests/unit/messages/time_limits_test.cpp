#include "messages/time_limits.hpp"

#include <chrono>
#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

namespace unit_messages_time_limits_test {

using parley::messages::check_range;
using parley::messages::max_at_ms;
using parley::messages::max_delay_ms;
using parley::messages::saturating_add;
using parley::messages::saturating_milliseconds;
using parley::messages::saturating_mul;
using parley::messages::saturating_sub;

namespace {

constexpr auto max = std::numeric_limits<std::int64_t>::max();
constexpr auto min = std::numeric_limits<std::int64_t>::min();

using nanoseconds = std::chrono::nanoseconds;
using time_point = std::chrono::steady_clock::time_point;

} // namespace

TEST_CASE("the documented time limits are one year", "[unit]") {
  CHECK(max_delay_ms == 365LL * 24 * 3600 * 1000);
  CHECK(max_at_ms == 31536000000);
  // A year in nanoseconds fits a steady_clock time point with room to spare.
  CHECK(saturating_milliseconds<nanoseconds>(max_delay_ms).count() ==
        max_delay_ms * 1000000);
}

TEST_CASE("saturating arithmetic clamps instead of wrapping", "[unit]") {
  CHECK(saturating_add(1, 2) == 3);
  CHECK(saturating_add(max, 1) == max);
  CHECK(saturating_add(max, max) == max);
  CHECK(saturating_add(min, -1) == min);
  CHECK(saturating_add(min, max) == -1);
  CHECK(saturating_sub(5, 7) == -2);
  CHECK(saturating_sub(min, 1) == min);
  CHECK(saturating_sub(max, -1) == max);
  CHECK(saturating_sub(0, min) == max);
  CHECK(saturating_mul(-4, 5) == -20);
  CHECK(saturating_mul(max, 2) == max);
  CHECK(saturating_mul(min, 2) == min);
  CHECK(saturating_mul(min, -1) == max);
  CHECK(saturating_mul(-3, max) == min);
}

TEST_CASE("milliseconds convert to finer durations without overflow", "[unit]") {
  CHECK(saturating_milliseconds<std::chrono::milliseconds>(max).count() == max);
  CHECK(saturating_milliseconds<std::chrono::microseconds>(1500).count() == 1500000);
  // 9223372036855 ms is the smallest value whose nanoseconds overflow int64.
  CHECK(saturating_milliseconds<nanoseconds>(9223372036855) == nanoseconds::max());
  CHECK(saturating_milliseconds<nanoseconds>(9223372036854775807) ==
        nanoseconds::max());
  CHECK(saturating_milliseconds<nanoseconds>(-9223372036855) == nanoseconds::min());
  CHECK(saturating_milliseconds<nanoseconds>(9223372036854).count() ==
        9223372036854000000);
}

TEST_CASE("time points add and subtract without overflow", "[unit]") {
  auto late = time_point{nanoseconds{max - 10}};
  CHECK(saturating_add(late, nanoseconds{5}).time_since_epoch().count() == max - 5);
  CHECK(saturating_add(late, nanoseconds::max()) == time_point::max());
  CHECK(saturating_add(time_point{nanoseconds{-5}}, nanoseconds::min()) ==
        time_point::min());
  CHECK(saturating_sub(time_point::max(), time_point{nanoseconds{-1}}) ==
        nanoseconds::max());
  CHECK(saturating_sub(time_point::min(), time_point{nanoseconds{1}}) ==
        nanoseconds::min());
  CHECK(saturating_sub(time_point{nanoseconds{7}}, time_point{nanoseconds{3}}) ==
        nanoseconds{4});
}

TEST_CASE("check_range names the range and the value", "[unit]") {
  CHECK(check_range(0, 0, 10).empty());
  CHECK(check_range(10, 0, 10).empty());
  CHECK(check_range(11, 0, 10) == "must be within 0..10, got 11");
  CHECK(check_range(min, 1, max_delay_ms) ==
        "must be within 1..31536000000, got -9223372036854775808");
}

} // namespace unit_messages_time_limits_test
