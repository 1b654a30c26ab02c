#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "caf/fwd.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"
#include "messages/handles/channel.hpp"
#include "messages/handles/store.hpp"

namespace parley::actors {

/// A channel member whose answers come over the HTTP API (an agent played by someone
/// outside the runtime, docs/protocols/channels.md, "Member brains"). Besides the
/// member's inputs it answers:
///
/// - `get`: its inbox as JSON text, `{"agent_id", "demand_offers",
///   "proposal_reviews"}`: what its channels asked and it has not answered
///   yet (a new round's demand_offer replaces the channel's earlier
///   questions, a proposal_review the channel's demand_offer);
/// - `offer_response` and `proposal_feedback`: forwards the answer to the
///   channel whose question it answers, and answers true once the channel
///   took it, or false for a message id it already forwarded (a replay,
///   ignored: E011), also one the store holds for a channel that
///   ended before a restart. Refused with a coded error: E007 when no
///   channel of that id asked this member anything or the channel has ended,
///   E001 when the answer is invalid, E006 when nothing of its kind is
///   awaited from this member in that channel, E030 when the channel (or,
///   for a channel it does not know, the store) did not answer in time;
/// - `answered, message_ids`: ids it forwarded before a restart (the stored
///   answers of its open channels): a replay of one is ignored as before.
using external_member_actor = channel_member_actor::extend<
    caf::replies_to<caf::get_atom>::with<std::string>,
    caf::replies_to<messages::offer_response>::with<bool>,
    caf::replies_to<messages::proposal_feedback>::with<bool>,
    caf::reacts_to<messages::answered_atom, std::vector<std::string>>>;

namespace channel {

/// Spawns the external member of agent `agent_id`; a forwarded answer the
/// channel has not taken within `timeout` is refused (E030). An answer to a
/// channel it does not know is looked up in `store`'s events of that channel
/// (none without a store), within `timeout` too.
external_member_actor spawn_external_member(caf::actor_system& sys,
                                            std::string agent_id,
                                            std::chrono::milliseconds timeout,
                                            store_actor store);

} // namespace channel

} // namespace parley::actors
