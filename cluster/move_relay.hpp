#pragma once

#include "caf/fwd.hpp"

#include "messages/handles/event_exchange.hpp"
#include "messages/handles/gateway.hpp"
#include "messages/handles/move_relay.hpp"

namespace parley::cluster {

/// Spawns the relay a `parley serve --cluster` node publishes on its node
/// port (messages/handles/move_relay.hpp): each move another node forwards
/// is handed to `gateway`, and the gateway's answer goes back to that node
/// (docs/cluster.md, "Any node answers"). The events other nodes send it go
/// to `events` (the node's event exchange), answered 0 without one.
actors::move_relay_actor spawn_move_relay(caf::actor_system& sys,
                                          const actors::gateway_actor& gateway,
                                          actors::event_exchange_actor events = {});

} // namespace parley::cluster
