#pragma once

#include <cstdint>

#include "caf/fwd.hpp"

#include "actors/llm/text_reply.hpp"
#include "messages/channel_settings.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/channel.hpp"
#include "messages/handles/coordinator.hpp"
#include "messages/handles/timer.hpp"

namespace parley::actors::coordinator {

/// Who a coordinator and its channels talk to besides the members. Any
/// handle may be unset.
struct coordinator_peers {
  /// The bus: the coordinator publishes its own events (demand.understood,
  /// filter.completed) there, its channels theirs and their refusals.
  messages::event_sink events;
  /// The node's timer service: the channels' collection timeouts.
  timer_actor timers;
};

/// Spawns a world's coordinator (interface.hpp; docs/protocols/channels.md, "Roles").
///
/// A demand is checked (rules::validate_demand, E001), understood by the
/// rule brain in the words of the registered members' capabilities
/// (demand.understood), given at most max_candidates candidates
/// (rules::select_candidates, never none; E005 when no member is registered
/// or none is active; filter.completed, whose selection says when it was the
/// fallback), and put to a channel of those candidates (channel/actor.hpp).
///
/// With settings.coordinator_brain "llm" and `model.client` set, a top
/// demand is understood by prompt 1 and its candidates picked by
/// prompt 2 (actors/coordinator/prompts.hpp), asked one after the other
/// without waiting: the submit is answered once the channel is open. An
/// unusable answer to prompt 2 is asked again with the retry prompt; a
/// failed call (E003, E004) or an unusable answer falls back as the
/// prompts' readers say (understanding.fallback, selection source
/// fallback) and is published as a warning naming the reason. E005 is
/// decided by the rules before prompt 2. Sub-channels pick by the rules.
/// Its channels (sub-channels too) aggregate their offers by prompt 4
/// through the same model (channel/llm_aggregation.hpp).
///
/// A channel's reporter is the coordinator: it keeps the demand's state from
/// the channels' terminal events. A
/// refused demand changes nothing and reports nothing.
///
/// Demand ids not given are "d-" and 8 hex digits drawn from `seed` and a
/// counter, the same in every run; the top channel is "collab-" and the same
/// digits, its sub-channels the parent's id and "-sub1", "-sub2"...
///
/// Sub-channels (docs/protocols/channels.md, "Gaps and sub-channels"): when a channel
/// ends finalized or force finalized with gaps, rules::plan_subchannels decides which
/// of them get a sub-channel (one level below a top channel, at most max_subchannels
/// per channel); each is a channel at depth + 1 for the gap's tags, its candidates
/// selected as for a demand among the members who do not take part in the parent (all
/// members if none of the others is active), its filter.completed carrying its channel
/// id. Every gap stays in the parent's final proposal, opened or only noted.
coordinator_actor spawn_coordinator(caf::actor_system& sys,
                                    messages::channel_settings settings,
                                    std::uint64_t seed, coordinator_peers with,
                                    llm::prompt_model model = {});

} // namespace parley::actors::coordinator
