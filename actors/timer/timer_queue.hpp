#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace parley::actors::timer {

/// Pending timers ordered by due time (ties in the order they were armed):
/// a binary heap in one vector, a few dozen bytes per timer. Pure: the caller
/// passes the time.
template <class Payload> class timer_queue {
public:
  /// Arms a timer due at `due_ms`.
  void push(std::int64_t due_ms, Payload payload) {
    entries_.push_back(entry{due_ms, next_seq_++, std::move(payload)});
    std::push_heap(entries_.begin(), entries_.end(), later);
  }

  /// The earliest due time, if any timer is pending.
  std::optional<std::int64_t> next_due() const {
    if (entries_.empty())
      return std::nullopt;
    return entries_.front().due_ms;
  }

  /// Calls `fire(payload)` for every timer due at `now_ms` or before, the
  /// earliest first, and forgets them.
  template <class F> void fire_due(std::int64_t now_ms, F&& fire) {
    while (!entries_.empty() && entries_.front().due_ms <= now_ms) {
      std::pop_heap(entries_.begin(), entries_.end(), later);
      auto x = std::move(entries_.back());
      entries_.pop_back();
      fire(x.payload);
    }
    if (entries_.empty())
      std::vector<entry>{}.swap(entries_);
  }

  std::size_t size() const noexcept { return entries_.size(); }

private:
  struct entry {
    std::int64_t due_ms;
    std::uint64_t seq;
    Payload payload;
  };

  /// The heap's order: the top is the earliest (then the first armed).
  static bool later(const entry& x, const entry& y) {
    return x.due_ms != y.due_ms ? x.due_ms > y.due_ms : x.seq > y.seq;
  }

  std::vector<entry> entries_;
  std::uint64_t next_seq_ = 0;
};

} // namespace parley::actors::timer
