#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace parley::actors {

/// The deadlines of requests that all wait equally long, so that they come
/// in the order the requests were made: one timer for the earliest stands
/// for all of them, instead of a timer per request. Each deadline carries
/// the `Key` its owner finds the request by and a ticket that tells it from
/// a later request under the same key. An answered request's deadline is
/// not searched for: it leaves from the front once it gets there (the
/// owner's `waits(key, ticket)` says whether the request still waits).
/// Pure: the caller passes the time (the gateway's, the HTTP requesters').
template <class TimePoint, class Key> class deadline_queue {
public:
  /// Adds the deadline `at` of a request found by `key`; `at` is not before
  /// any deadline added earlier. Returns the request's ticket.
  std::uint64_t push(TimePoint at, Key key) {
    auto ticket = ++next_ticket_;
    entries_.push_back(entry{at, std::move(key), ticket});
    return ticket;
  }

  /// Calls `give_up(key, ticket)` for each request that still waits (see
  /// `waits`) and whose deadline is `now` or earlier, the earliest first.
  template <class Waits, class GiveUp>
  void take_due(TimePoint now, Waits&& waits, GiveUp&& give_up) {
    while (!entries_.empty() && entries_.front().at <= now) {
      auto x = std::move(entries_.front());
      entries_.pop_front();
      if (waits(x.key, x.ticket))
        give_up(x.key, x.ticket);
    }
    trim(waits);
  }

  /// Drops the deadlines of answered requests from the front.
  template <class Waits> void trim(Waits&& waits) {
    while (!entries_.empty() && !waits(entries_.front().key, entries_.front().ticket))
      entries_.pop_front();
  }

  /// The earliest deadline kept; none when none is.
  std::optional<TimePoint> next() const {
    if (entries_.empty())
      return std::nullopt;
    return entries_.front().at;
  }

private:
  struct entry {
    TimePoint at;
    Key key;
    std::uint64_t ticket;
  };

  std::uint64_t next_ticket_ = 0;
  std::deque<entry> entries_;
};

} // namespace parley::actors
