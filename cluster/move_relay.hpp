#pragma once

#include <functional>
#include <string>

#include "caf/fwd.hpp"

#include "messages/handles/channel.hpp"
#include "messages/handles/event_exchange.hpp"
#include "messages/handles/gateway.hpp"
#include "messages/handles/move_relay.hpp"

namespace parley::cluster {

/// Who takes an answer of agent `agent_id` on this node: its external
/// channel member, or else the node's answer router
/// (actors/channel/answer_router.hpp); an unset handle: nobody.
using member_finder =
    std::function<actors::answer_taker_actor(const std::string& agent_id)>;

/// Spawns the relay a `parley serve --cluster` node publishes on its node
/// port (messages/handles/move_relay.hpp): each move another node forwards
/// is handed to `gateway`, and the gateway's answer goes back to that node
/// (docs/cluster.md, "Any node answers"); each channel answer to who takes
/// it here (`members`), whose answer goes back (E008 when nobody does). The
/// events other nodes send it go to `events` (the node's event exchange),
/// answered 0 without one.
actors::move_relay_actor spawn_move_relay(caf::actor_system& sys,
                                          const actors::gateway_actor& gateway,
                                          member_finder members,
                                          actors::event_exchange_actor events = {});

} // namespace parley::cluster
