#pragma once

#include "caf/fwd.hpp"

#include "messages/channel_member.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/channel.hpp"

namespace parley::actors::channel {

/// Spawns a channel member: an agent that answers channels
/// (docs/protocols/channels.md, "Member brains") with a deterministic brain
/// (member_brain.hpp).
///
/// Each `demand_offer` is answered with an `offer_response`, each
/// `proposal_review` with a `proposal_feedback`, sent to the channel the
/// message names; a silent brain sends nothing. It keeps no state per
/// channel, so one member serves any number of channels at once. A spec
/// that `validate` refuses is published as a problem (E001) on `events`
/// and the actor stops at once.
channel_member_actor spawn_member(caf::actor_system& sys,
                                  messages::channel_member_spec spec,
                                  messages::event_sink events);

} // namespace parley::actors::channel
