#include "actors/metrics/instruments.hpp"

#include <algorithm>
#include <utility>

namespace parley::actors::metrics {

histogram::histogram(std::vector<std::int64_t> bounds)
    : bounds_(std::move(bounds)),
      buckets_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds_.size() + 1)) {}

void histogram::observe(std::int64_t x) noexcept {
  auto i = std::lower_bound(bounds_.begin(), bounds_.end(), x) - bounds_.begin();
  buckets_[static_cast<std::size_t>(i)].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(x, std::memory_order_relaxed);
}

histogram::snapshot histogram::read() const {
  snapshot out;
  out.cumulative.reserve(bounds_.size() + 1);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    total += buckets_[i].load(std::memory_order_relaxed);
    out.cumulative.push_back(total);
  }
  out.sum = sum_.load(std::memory_order_relaxed);
  return out;
}

std::vector<std::int64_t> exponential_bounds(std::int64_t first, std::int64_t factor,
                                             std::size_t count) {
  std::vector<std::int64_t> out;
  auto x = first < 1 ? std::int64_t{1} : first;
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(x);
    x = std::max(x + 1, x * factor);
  }
  return out;
}

} // namespace parley::actors::metrics
