#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <ratio>
#include <string>

namespace parley::messages {

/// The longest delay, timeout or window any input may set (a script's think
/// time, a negotiation timeout, a voting window, a task duration): one year of
/// 365 days, in milliseconds. A nanosecond clock holds 292 years, so a time
/// point plus such a delay cannot overflow.
inline constexpr std::int64_t max_delay_ms = 31'536'000'000;

/// A scenario's horizon: the latest `at_ms` a step may be due, one year after
/// the start of the run.
inline constexpr std::int64_t max_at_ms = 31'536'000'000;

/// Returns an empty string when `value` is within `min..max`, otherwise
/// "must be within MIN..MAX, got VALUE" for the caller to prefix with the name
/// or path of the value.
std::string check_range(std::int64_t value, std::int64_t min, std::int64_t max);

/// Returns `x + y`, clamped to the range of std::int64_t instead of wrapping.
constexpr std::int64_t saturating_add(std::int64_t x, std::int64_t y) noexcept {
  std::int64_t sum = 0;
  if (!__builtin_add_overflow(x, y, &sum))
    return sum;
  return y > 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

/// Returns `x - y`, clamped to the range of std::int64_t instead of wrapping.
constexpr std::int64_t saturating_sub(std::int64_t x, std::int64_t y) noexcept {
  std::int64_t difference = 0;
  if (!__builtin_sub_overflow(x, y, &difference))
    return difference;
  return y < 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

/// Returns `x * y`, clamped to the range of std::int64_t instead of wrapping.
constexpr std::int64_t saturating_mul(std::int64_t x, std::int64_t y) noexcept {
  std::int64_t product = 0;
  if (!__builtin_mul_overflow(x, y, &product))
    return product;
  return (x < 0) == (y < 0) ? std::numeric_limits<std::int64_t>::max()
                            : std::numeric_limits<std::int64_t>::min();
}

/// Converts `ms` milliseconds to `Duration` (milliseconds or finer, e.g. the
/// nanoseconds of `std::chrono::steady_clock`), clamped to its range: unlike
/// `std::chrono::milliseconds(ms)` converted implicitly, it cannot overflow.
template <class Duration> constexpr Duration saturating_milliseconds(std::int64_t ms) {
  using ticks_per_ms = std::ratio_divide<std::milli, typename Duration::period>;
  static_assert(ticks_per_ms::den == 1, "Duration must be milliseconds or finer");
  static_assert(std::numeric_limits<typename Duration::rep>::max() ==
                    std::numeric_limits<std::int64_t>::max(),
                "Duration must count in 64-bit integers");
  return Duration{saturating_mul(ms, ticks_per_ms::num)};
}

/// Returns `t + d`, clamped to the range of the time point instead of wrapping.
template <class Clock, class Duration>
constexpr std::chrono::time_point<Clock, Duration>
saturating_add(std::chrono::time_point<Clock, Duration> t, Duration d) {
  return std::chrono::time_point<Clock, Duration>{
      Duration{saturating_add(t.time_since_epoch().count(), d.count())}};
}

/// Returns `x - y`, clamped to the range of the duration instead of wrapping.
template <class Clock, class Duration>
constexpr Duration saturating_sub(std::chrono::time_point<Clock, Duration> x,
                                  std::chrono::time_point<Clock, Duration> y) {
  return Duration{
      saturating_sub(x.time_since_epoch().count(), y.time_since_epoch().count())};
}

} // namespace parley::messages
