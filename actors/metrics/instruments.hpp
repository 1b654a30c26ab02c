#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace parley::actors::metrics {

/// A count that only grows. `add` is one relaxed atomic add: no lock, so it
/// may sit on any hot path (prometheus-cpp's own Counter is as cheap, but its
/// Family::Add takes a mutex, and its Histogram::Observe takes one on every
/// observation; these instruments take none).
class counter {
public:
  void add(std::uint64_t n = 1) noexcept {
    value_.fetch_add(n, std::memory_order_relaxed);
  }

  std::uint64_t value() const noexcept {
    return value_.load(std::memory_order_relaxed);
  }

private:
  std::atomic<std::uint64_t> value_{0};
};

/// A value that goes up and down (one relaxed atomic operation each).
class gauge {
public:
  void add(std::int64_t n) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }

  void set(std::int64_t x) noexcept { value_.store(x, std::memory_order_relaxed); }

  std::int64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

private:
  std::atomic<std::int64_t> value_{0};
};

/// A distribution of integer observations (in the instrument's unit: rounds,
/// microseconds, rows) over fixed upper bounds, Prometheus-style: an
/// observation counts in the first bucket whose bound is >= it, or in the
/// implicit +Inf bucket. `observe` is two relaxed atomic adds, no lock.
/// A reader racing writers may see the sum a few observations ahead of or
/// behind the buckets; the count is the buckets' total, so it always equals
/// the +Inf bucket.
class histogram {
public:
  /// `bounds` must be strictly increasing (not checked at run time: the
  /// bounds are constants of the code).
  explicit histogram(std::vector<std::int64_t> bounds);

  void observe(std::int64_t x) noexcept;

  /// What a scrape reads.
  struct snapshot {
    /// Cumulative counts: entry i counts observations <= bounds[i]; the last
    /// entry (one more than the bounds) counts all of them.
    std::vector<std::uint64_t> cumulative;
    std::int64_t sum = 0;

    std::uint64_t count() const noexcept {
      return cumulative.empty() ? 0 : cumulative.back();
    }
  };

  snapshot read() const;

  const std::vector<std::int64_t>& bounds() const noexcept { return bounds_; }

private:
  std::vector<std::int64_t> bounds_;
  /// One per bound, plus +Inf.
  std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_;
  std::atomic<std::int64_t> sum_{0};
};

/// Bounds `first`, `first * factor`, ... up to `count` of them (at least one
/// apart each): the usual exponential buckets, in integers.
std::vector<std::int64_t> exponential_bounds(std::int64_t first, std::int64_t factor,
                                             std::size_t count);

} // namespace parley::actors::metrics
