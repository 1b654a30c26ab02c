#pragma once

#include "caf/fwd.hpp"

#include "cluster/bridge/interface.hpp"
#include "cluster/room_host.hpp"

namespace parley::cluster::bridge {

/// Spawns a node's side of a bridge to the caller whose side is `caller`.
///
/// It builds the caller's rooms through `host`, giving each member a
/// forwarder to its agent's slot at the caller (forwarder.hpp) and every
/// room one forwarder to the caller's bus, so that what the rooms and their
/// negotiations send agents and the bus goes back in batches. It delivers
/// what comes from the caller: to a room by its slot, or to the negotiation
/// an agent's answer names (learned from the openings that pass through the
/// agents' forwarders; an answer for a negotiation that ended is dropped, as
/// its actor would drop it). It holds the caller's rooms until the caller's
/// side goes away; then it stops them and itself.
node_bridge_actor spawn_node_side(caf::actor_system& sys, caller_bridge_actor caller,
                                   room_host_actor host);

} // namespace parley::cluster::bridge
