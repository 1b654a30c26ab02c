#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/channel/rules.hpp"
#include "messages/channel_event.hpp"

namespace parley::actors::channel {

/// Everything a channel actor needs to continue where its events left off
/// (after a restart: docs/design.md, "The store"), folded from its
/// own `channel_event`s.
struct channel_snapshot {
  std::string channel_id;
  std::string demand_id;
  /// From channel.created.
  messages::channel_setup setup;
  channel_status status = channel_status::created;
  std::int32_t round = 1;
  /// Who got the demand this round, and their answers by agent.
  std::set<std::string> invited;
  std::map<std::string, messages::offer_response> offers;
  /// The round's proposal, who it was put to, and their feedback in order.
  std::optional<messages::channel_proposal> proposal;
  std::set<std::string> participants;
  std::vector<messages::proposal_feedback> feedback;
  /// Candidates who withdrew: no later round asks them again.
  std::set<std::string> withdrawn;
  /// The message ids of every offer and feedback taken (a replay after the
  /// restart is still a duplicate).
  std::set<std::string> processed;
  /// When the collection under way began (Unix ms): its deadline is this plus
  /// the response or feedback timeout.
  std::int64_t collection_started_ms = 0;
  /// When the channel entered its status or last recovered (recovery.hpp).
  std::int64_t stuck_since_ms = 0;
  /// The demand was re-broadcast to the missing during this collection.
  bool reasked = false;
  std::int32_t recovery_attempts = 0;
};

/// Whether `e` begins a state checker's recovery: its `reason` is one of
/// recovery.hpp's stuck reasons (the channel actor marks it so).
bool is_recovery(const messages::channel_event& e);

/// Folds one event of the channel into `x`. Events of other kinds than a
/// channel's own (the coordinator's two) change nothing.
void apply(channel_snapshot& x, const messages::channel_event& e);

/// Folds a channel's events, oldest first. Returns nothing unless the first
/// one is its channel.created with a setup.
std::optional<channel_snapshot>
fold(const std::vector<messages::channel_event>& events);

} // namespace parley::actors::channel
