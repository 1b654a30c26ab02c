#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "caf/fwd.hpp"

#include "actors/channel/llm_aggregation.hpp"
#include "actors/channel/snapshot.hpp"
#include "messages/channel_settings.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/channel.hpp"
#include "messages/handles/timer.hpp"

namespace parley::actors::channel {

/// An agent a channel puts the demand to
/// (docs/protocols/channels.md, "Candidate selection"), with the handle it is reached
/// at.
struct candidate {
  std::string agent_id;
  std::string display_name;
  /// Why it was picked, and how well it matches (0..100): its demand_offer's
  /// filter_reason and match_score.
  std::string reason;
  std::int32_t match_score = 0;
  channel_member_actor agent;
  /// Its capability tags: a demand's tag that no participant offers is a gap
  /// of the proposal (aggregation.hpp).
  std::vector<std::string> capabilities;
};

/// What a channel negotiates (docs/protocols/channels.md, "Flow"; with the part
/// of the demand its candidates see).
struct channel_spec {
  std::string channel_id;
  std::string demand_id;
  std::string surface_demand;
  std::vector<std::string> capability_tags;
  std::vector<candidate> candidates;
  messages::channel_settings settings;
  /// A sub-channel's parent (docs/protocols/channels.md, "Gaps and sub-channels");
  /// empty for a top channel.
  std::string parent_channel_id;
  /// 0 for a top channel, parent's depth + 1 for a sub-channel.
  std::int32_t depth = 0;
};

/// Who a channel talks to besides its candidates. Any handle may be unset.
struct peers {
  /// The bus: receives every channel event (messages/channel_event.hpp) whose
  /// topic somebody wants, in order, and its refusals as problem events.
  messages::event_sink events;
  /// Receives the channel's terminal event (finalized, force finalized or
  /// failed): its creator, who follows how it ended.
  channel_reporter_actor reporter;
  /// The node's timer service: the collection timeouts.
  timer_actor timers;
  /// The model that aggregates the offers (prompt 4, llm_aggregation.hpp);
  /// unused: the rule does.
  aggregation_model aggregation = {};
};

/// Spawns a channel actor: one channel (docs/protocols/channels.md, "Flow").
///
/// It reports channel.created, puts the demand to every candidate
/// (`demand_offer`, demand.broadcast) and collects their `offer_response`s
/// until all answered or the response timeout. Nobody answered: it fails
/// (timeout). Otherwise it aggregates the offers into a proposal (by rule,
/// aggregation.hpp; or, when `with.aggregation` is used, by its model with
/// the rule as the fallback, llm_aggregation.hpp; nobody takes part: it
/// fails, no_participants), sends each participant a `proposal_review`
/// (proposal.distributed) and collects their `proposal_feedback` until all
/// answered or the feedback timeout.
/// rules::evaluate_feedback then decides (feedback.evaluated): finalized,
/// force_finalized, failed, or a new round that puts the demand again to
/// every candidate who has not withdrawn. Every status change goes through
/// rules::transition. Once finalized, force finalized or failed it stops.
///
/// Input is refused as a problem event and changes nothing: an invalid
/// message (E001), another channel's (E007), one from an agent who is not a
/// candidate or not a participant (E013), a replayed message id (E011, a
/// warning), one that arrives while nothing of its kind is awaited (E006, a
/// warning). An invalid spec (no channel id, invalid settings) is refused
/// with E001 and the actor stops at once.
///
/// The state checker (docs/protocols/channels.md, "The state checker") runs on one
/// timer per channel, every state_check_interval_ms (see recovery.hpp): a channel stuck
/// in collecting or negotiating for more than max_stuck_ms re-asks the missing, forces
/// the evaluation, or continues with the offers it has; after max_recovery_attempts it
/// fails (max_recovery_attempts). The first event a recovery leads to carries the
/// check's reason in `reason` (stuck_in_collecting, stuck_in_negotiating or
/// missing_responses).
channel_actor spawn_channel(caf::actor_system& sys, channel_spec spec, peers with);

/// Spawns a channel actor that continues from `snapshot` (snapshot.hpp: its
/// events folded), e.g. after a restart: what the events say happened is
/// not done or reported again, a replayed message id is still refused
/// (E011), and the collection under way keeps its deadline (the timeout left
/// is re-armed and whoever it still waits for is asked again, without an
/// event; if it passed, or everyone already answered, the collection closes
/// at once). `agents` reaches the candidates by agent id; one
/// without a handle is not reached. A snapshot of a finished channel, or
/// with invalid settings (E001), stops the actor at once.
channel_actor resume_channel(caf::actor_system& sys, channel_snapshot snapshot,
                             std::map<std::string, channel_member_actor> agents,
                             peers with);

} // namespace parley::actors::channel
