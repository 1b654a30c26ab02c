#pragma once

#include <cstdint>

#include "caf/actor.hpp"
#include "caf/actor_control_block.hpp"
#include "caf/fwd.hpp"

#include "messages/bridge.hpp"

namespace parley::cluster::bridge {

/// Makes the stand-in, in this process, of an actor of the other process:
/// whatever is sent to it goes to `side` (this process's side of a bridge)
/// as one `routed{kind, slot, ...}` (sender kept), and travels on in that
/// side's next batch. It is not scheduled and has no mailbox: a send to it
/// costs one enqueue into the bridge, like a send to a CAF proxy costs one
/// into the middleman, but it announces nothing to the other process.
///
/// A request through it is answered at once with an error: nothing asks a
/// remote room or agent for an answer (placing rooms and syncing are asked
/// of the bridge itself).
caf::strong_actor_ptr make_forwarder(caf::actor_system& sys, caf::actor side,
                                     messages::route_kind kind, std::uint64_t slot);

} // namespace parley::cluster::bridge
