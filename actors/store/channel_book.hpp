#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "messages/channel_event.hpp"
#include "messages/store.hpp"

namespace parley::actors::store {

/// One row of `channel_events` (migrations 003 and 004).
struct channel_event_row {
  std::string channel_id;
  /// 1, 2, … per channel, in the order its events were heard.
  std::int64_t seq = 0;
  /// Its `type` column is this kind's name (type_name).
  messages::channel_event_kind kind = messages::channel_event_kind::created;
  std::int64_t at_ms = 0;
  /// Where its stored form (actors/store/channel_codec.hpp) is in the
  /// batch's `bodies`.
  std::size_t body_offset = 0;
  std::size_t body_size = 0;
};

/// The event name of `x` (docs/protocols/channels.md, "Events"), e.g.
/// "proposal.finalized", made once.
const std::string& type_name(messages::channel_event_kind x);

/// What one transaction writes for the channels: the events heard,
/// in order, their bodies one after the other in one buffer (one
/// allocation per batch, not one per event), and the row of each channel
/// that began, changed its status or round, or ended in them, as it stands
/// after them (upserted, so writing it twice changes nothing). An open
/// channel's row carries no proposal (the stored one stays; a channel's
/// proposal is replaced, never removed), and its stored counts and
/// `updated_at` are those of its last status change: its events say the
/// rest (`current_record`), so an offer or a feedback costs one event row
/// and nothing else. An ended channel's row is whole.
struct channel_ops {
  std::vector<channel_event_row> events;
  std::string bodies;
  std::vector<messages::channel_record> rows;

  bool empty() const noexcept { return events.empty(); }

  /// Where the body of `x`, one of `events`, begins.
  const char* body(const channel_event_row& x) const noexcept {
    return bodies.data() + x.body_offset;
  }
};

/// One channel folded from its events: its row, and what the next event's
/// row depends on. Pure.
class channel_fold {
public:
  /// Folds `x` in: the status after it
  /// (docs/protocols/channels.md, "States and transitions"), its round, the latest
  /// proposal, who answered this round and on its proposal.
  void apply(const messages::channel_event& x);

  const messages::channel_record& record() const noexcept { return record_; }

  /// A copy of the row without its proposal: what an open channel's row
  /// is written with.
  messages::channel_record open_row();

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

  /// The pending writes; empties them. Each touched channel's row is copied
  /// here, once per batch rather than once per event.
  channel_ops take();

private:
  std::unordered_map<std::string, channel_fold> open_;
  /// The events and bodies since the last `take`; its rows are made there.
  channel_ops pending_;
  /// The channels whose row the pending writes hold, in the order first
  /// touched since the last `take`, and whether each is there already.
  std::vector<std::string> touched_;
  std::unordered_set<std::string> in_touched_;
  /// The rows of the channels that ended since the last `take` (no longer
  /// followed).
  std::unordered_map<std::string, messages::channel_record> ended_;
  /// The size of the last batch's bodies: the next one's first reservation.
  std::size_t last_bodies_ = 0;
};

/// A channel's record as its stored events have it: `row` itself once the
/// channel ended (its last row is written with its last event), otherwise
/// the fold of `events` (none: `row`).
messages::channel_record
current_record(messages::channel_record row,
               const std::vector<messages::channel_event>& events);

/// Whether `x`'s status is one a channel ends in.
bool ended(const messages::channel_record& x);

/// The event a row stored as JSON (before migration 004) holds. Throws
/// messages::json_error when it does not have the shape the store wrote.
messages::channel_event channel_event_of(const std::string& json);

/// The JSON text of a record's proposal (empty without one), and the
/// proposal of such a text (none when it is empty; throws
/// messages::json_error when malformed).
std::string proposal_json(const messages::channel_record& x);
void read_proposal(const std::string& json, messages::channel_record& x);

} // namespace parley::actors::store
