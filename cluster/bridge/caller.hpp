#pragma once

#include "caf/fwd.hpp"

#include "cluster/bridge/interface.hpp"
#include "messages/handles/bus.hpp"

namespace parley::cluster::bridge {

/// Spawns a caller's side of a bridge to one node (whose side, made for
/// this one, it learns with `bridge_atom` right after).
///
/// It places rooms on the node: it keeps their agents' handles here, each
/// in a slot the node's forwarders name, and answers the rooms' slots at the
/// node (this process's forwarders to them route by it). It delivers what
/// comes back to agents as itself, so that an agent's answer comes here and
/// goes on to the negotiation it names; events go to `bus`.
caller_bridge_actor spawn_caller_side(caf::actor_system& sys, actors::bus_actor bus);

} // namespace parley::cluster::bridge
