#pragma once

#include "caf/fwd.hpp"

namespace parley::runtime {

/// Spawns the actor a node publishes: it builds rooms for remote callers.
///
/// - `std::vector<room_spec>` -> `std::vector<caf::actor>`: spawns the rooms
///   on this node (their negotiations run here too), in order;
/// - `echo_atom` -> an actor that answers every message with itself (a wire
///   check: a type the node does not know comes back empty);
/// - `shutdown_atom`: stops every room it built (their negotiations report
///   themselves aborted, E021) and then itself.
caf::actor spawn_room_host(caf::actor_system& sys);

} // namespace parley::runtime
