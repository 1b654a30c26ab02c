#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "messages/events.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::actors::gateway {

/// The gateway's memory of negotiations (no CAF inside): each record kept up
/// to date from the lifecycle events, the first result of every move the API
/// accepted (so that a replay of its message id gets that result again), and
/// whose turn it is. Open negotiations are always kept; of the ended ones the
/// newest `ended_limit`, with their results (older ones are the store's).
class ledger {
public:
  explicit ledger(std::size_t ended_limit = 10000) : ended_limit_(ended_limit) {}

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

  /// The record as it was right after the accepted move `message_id` of
  /// negotiation `id`; for a move from before a restart (a round of the
  /// record carries its id), the record now; null if no such move was
  /// accepted (or it is forgotten).
  const messages::negotiation_record* first_result(const std::string& id,
                                                   const std::string& message_id) const;

  /// Remembers the record right after the accepted move `message_id`.
  void remember(const std::string& id, const std::string& message_id,
                messages::negotiation_record after);

  /// How many negotiations it holds (open and ended).
  std::size_t size() const noexcept { return entries_.size(); }

  /// Whose move it is in `x`, or empty once it ended.
  static std::string to_move(const messages::negotiation_record& x);

private:
  struct entry {
    messages::negotiation_record record;
    std::vector<std::pair<std::string, messages::negotiation_record>> results;
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
