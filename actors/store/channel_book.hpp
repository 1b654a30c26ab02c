#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages/channel_event.hpp"
#include "messages/store.hpp"

namespace parley::actors::store {

/// One row of `channel_events` (migration 003).
struct channel_event_row {
  std::string channel_id;
  /// 1, 2, … per channel, in the order its events were heard.
  std::int64_t seq = 0;
  /// The kind as seed 002 names it, e.g. "proposal.finalized".
  std::string type;
  std::int64_t at_ms = 0;
  /// The event's wire JSON (messages/channel_json.cpp).
  std::string json;
};

/// What one transaction writes for seed 002's channels: the events heard,
/// in order, and the row of each channel they touched as it stands after
/// them (upserted whole, so writing it twice changes nothing).
struct channel_ops {
  std::vector<channel_event_row> events;
  std::vector<messages::channel_record> rows;

  bool empty() const noexcept { return events.empty(); }
};

/// One channel folded from its events: its row, and what the next event's
/// row depends on. Pure.
class channel_fold {
public:
  /// Folds `x` in: the status after it (seed 002 §5.3's names), its round,
  /// the latest proposal, who answered this round and on its proposal.
  void apply(const messages::channel_event& x);

  const messages::channel_record& record() const noexcept { return record_; }

  /// How many events were folded in: the last one's seq.
  std::int64_t events() const noexcept { return events_; }

  /// Whether the channel ended (finalized, force finalized or failed).
  bool terminal() const;

private:
  messages::channel_record record_;
  std::set<std::string> offered_;
  std::set<std::string> reviewed_;
  std::int64_t events_ = 0;
};

/// The channels the store follows: the open ones, folded, and the writes
/// heard since the last commit, in order. Pure: no CAF, no database.
class channel_book {
public:
  /// Whether channel `id` is followed (heard since the store started, or
  /// restored, and not ended).
  bool knows(const std::string& id) const { return open_.count(id) > 0; }

  /// Follows channel `id` again from its stored events (the store heard of
  /// it before a restart).
  void restore(const std::string& id,
               const std::vector<messages::channel_event>& stored);

  /// Folds `x` into its channel and the pending writes; false (nothing
  /// written) when it names no channel (the coordinator's demand.understood
  /// before a channel exists).
  bool add(const messages::channel_event& x);

  bool empty() const noexcept { return pending_.empty(); }

  /// Events folded in since the last `take`.
  std::size_t events() const noexcept { return pending_.events.size(); }

  /// The pending writes; empties them.
  channel_ops take();

private:
  std::unordered_map<std::string, channel_fold> open_;
  channel_ops pending_;
  /// Where each channel's row is in pending_.rows.
  std::unordered_map<std::string, std::size_t> rows_;
};

/// The event a stored row's JSON holds. Throws messages::json_error when it
/// does not have the shape the store writes.
messages::channel_event channel_event_of(const std::string& json);

/// The JSON text of a record's proposal (empty without one), and the
/// proposal of such a text (none when it is empty; throws
/// messages::json_error when malformed).
std::string proposal_json(const messages::channel_record& x);
void read_proposal(const std::string& json, messages::channel_record& x);

} // namespace parley::actors::store
