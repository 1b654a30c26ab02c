#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "caf/fwd.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "actors/channel/answer_router.hpp"
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
///   ignored: E011); with a store, only once the store committed what it
///   received before (the channel's event of the answer). An answer to a
///   channel that asked this member nothing goes to the node's answer router
///   (actors/channel/answer_router.hpp: another node's channel, or one that
///   ended before a restart), which answers it. Refused with a coded error:
///   E007 when the channel has ended (or no channel of that id asked this
///   member anything, without a router), E001 when the answer is invalid,
///   E006 when nothing of its kind is awaited from this member in that
///   channel, E030 when the channel or the store did not answer in time,
///   E028 when the store cannot commit;
/// - `answered, message_ids`: ids it forwarded before a restart (the stored
///   answers of its open channels): a replay of one is ignored as before.
using external_member_actor = channel_member_actor::extend<
    caf::replies_to<caf::get_atom>::with<std::string>,
    caf::replies_to<messages::offer_response>::with<bool>,
    caf::replies_to<messages::proposal_feedback>::with<bool>,
    caf::reacts_to<messages::answered_atom, std::vector<std::string>>>;

namespace channel {

/// Spawns the external member of agent `agent_id`; a forwarded answer the
/// channel has not taken, or `store` (none: nothing waits for it) has not
/// committed, within `timeout` is refused (E030). An answer to a channel it
/// does not know goes to `router` (none: E007).
external_member_actor spawn_external_member(caf::actor_system& sys,
                                            std::string agent_id,
                                            std::chrono::milliseconds timeout,
                                            store_actor store,
                                            answer_router_actor router);

} // namespace channel

} // namespace parley::actors
