#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <variant>
#include <vector>

#include "actors/common/deadline_queue.hpp"
#include "service/message.hpp"

namespace parley::service {

/// The answers one requester owes (no CAF inside): each request is answered
/// once, by its result or, when its deadline comes first, by a refusal. All
/// requests of a requester wait equally long: one timer for the earliest
/// deadline stands for every request (actors/common/deadline_queue.hpp).
class pending_answers {
public:
  using time_point = std::chrono::steady_clock::time_point;

  /// Owes `respond` until `deadline`, which is not before that of any answer
  /// opened earlier; returns its ticket.
  std::uint64_t open(respond_function respond, time_point deadline);

  /// The answer of `ticket`, which its caller now gives; empty when it was
  /// given already (its deadline came first).
  respond_function take(std::uint64_t ticket);

  /// The answers whose deadline is `now` or earlier, which their caller now
  /// refuses, oldest first.
  std::vector<respond_function> take_due(time_point now);

  /// The earliest deadline of an answer still owed; none when none is.
  std::optional<time_point> next_deadline() const;

  /// Answers owed.
  std::size_t size() const noexcept { return owed_.size(); }

private:
  /// Whether an answer is still owed, for the deadline queue.
  auto owing() const {
    return [this](std::monostate, std::uint64_t ticket) {
      return owed_.count(ticket) > 0;
    };
  }

  std::unordered_map<std::uint64_t, respond_function> owed_;
  /// The deadlines, by ticket (an answer needs no other key).
  actors::deadline_queue<time_point, std::monostate> deadlines_;
};

} // namespace parley::service
