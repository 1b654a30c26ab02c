#pragma once

#include <cstdint>

#include "caf/actor.hpp"
#include "caf/actor_control_block.hpp"
#include "caf/fwd.hpp"

#include "messages/gateway.hpp"

namespace parley::runtime::gateway {

/// Makes the stand-in, in this process, of an actor of the other process:
/// whatever is sent to it goes to `gateway` as one `routed{kind, slot, ...}`
/// (sender kept), and travels on in the gateway's next batch. It is not
/// scheduled and has no mailbox: a send to it costs one enqueue into the
/// gateway, like a send to a CAF proxy costs one into the middleman, but
/// it announces nothing to the other process.
///
/// A request through it is answered at once with an error: nothing asks a
/// remote room or agent for an answer (requests cross through a gateway of
/// their own, see cluster.hpp).
caf::strong_actor_ptr make_forwarder(caf::actor_system& sys, caf::actor gateway,
                                     messages::route_kind kind, std::uint64_t slot);

} // namespace parley::runtime::gateway
