#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages/events.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::actors::gateway {

/// The gateway's memory of negotiations (no CAF inside): each record kept up
/// to date from the lifecycle events, how much of it the store committed, and
/// whose turn it is. Open negotiations are always kept; of the ended ones the
/// newest `ended_limit` (older ones are the store's). A move's result is not
/// kept apart: its round carries its message id, and the record right after
/// it is rebuilt from the rounds (actors/negotiation/replay.hpp), the same
/// now, after the end and after a restart.
class ledger {
public:
  explicit ledger(std::size_t ended_limit = 1000) : ended_limit_(ended_limit) {}

  /// Brings the record of `x`'s negotiation up to date; returns it, or null
  /// for an event of a negotiation whose start it never saw.
  const messages::negotiation_record* apply(const messages::negotiation_event& x);

  /// Keeps `x`, an open negotiation from before a restart (crash recovery),
  /// as if its start had been seen; it is committed as it is.
  void restore(messages::negotiation_record x);

  /// Notes that the store committed negotiation `id` with at least `rounds`
  /// rounds (and its end, when `ended`).
  void mark_committed(const std::string& id, std::int32_t rounds, bool ended);

  /// Whether the record kept of negotiation `id` is committed as it is now:
  /// the store confirmed its rounds, and its end once it ended.
  bool committed(const std::string& id) const;

  /// The record of negotiation `id`, or null.
  const messages::negotiation_record* find(const std::string& id) const;

  /// The open negotiations where it is `agent`'s move, oldest first.
  std::vector<messages::negotiation_record> awaiting(const std::string& agent) const;

  /// The record as it was right after the move `message_id` of negotiation
  /// `id` (whose last round is that move), rebuilt from the rounds of the
  /// record it holds; none when it holds no such negotiation, or no round of
  /// it carries that id.
  std::optional<messages::negotiation_record>
  result_of(const std::string& id, const std::string& message_id) const;

  /// How many negotiations it holds (open and ended).
  std::size_t size() const noexcept { return entries_.size(); }

  /// Whose move it is in `x`, or empty once it ended.
  static std::string to_move(const messages::negotiation_record& x);

private:
  struct entry {
    messages::negotiation_record record;
    /// What the store confirmed committed: rounds, and whether the end.
    std::int32_t committed_rounds = 0;
    bool committed_end = false;
  };

  void forget_oldest_ended();

  std::size_t ended_limit_;
  std::unordered_map<std::string, entry> entries_;
  /// Ended negotiations, oldest first.
  std::deque<std::string> ended_;
};

} // namespace parley::actors::gateway
