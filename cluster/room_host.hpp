#pragma once

#include <vector>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"
#include "messages/handles/room.hpp"

namespace parley::cluster {

/// What a node publishes (see spawn_room_host).
using room_host_actor = caf::typed_actor<
    caf::replies_to<std::vector<messages::room_spec>>::with<
        std::vector<actors::room_actor>>,
    caf::replies_to<messages::echo_atom>::with<caf::actor>,
    caf::replies_to<messages::count_atom>::with<std::size_t, std::size_t>,
    caf::replies_to<messages::bridge_atom, caf::actor>::with<caf::actor>,
    caf::reacts_to<messages::shutdown_atom>>;

/// Spawns the actor a node publishes: it builds rooms for remote callers.
///
/// - `std::vector<room_spec>` -> `std::vector<room_actor>`: spawns the rooms
///   on this node (their negotiations run here too), in order. It watches
///   them: once every room it built has stopped (a caller stops its rooms
///   when it is done), it also stops its idle negotiation actors, so a node
///   keeps nothing of a finished caller;
/// - `echo_atom` -> an actor that answers every message with itself (a wire
///   check: a type the node does not know comes back empty);
/// - `count_atom` -> (rooms alive, actors running on this node);
/// - `bridge_atom, caller` -> the node's side of a bridge for the caller's
///   side `caller` (cluster/bridge/; plain handles here, the handshake
///   crosses before either side knows the other): callers place rooms and
///   talk to them through it;
/// - `shutdown_atom`: stops every room it built (their negotiations report
///   themselves aborted, E021), every bridge, and then itself.
room_host_actor spawn_room_host(caf::actor_system& sys);

} // namespace parley::cluster
