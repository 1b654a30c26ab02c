#pragma once

#include "caf/fwd.hpp"

#include "messages/handles/timer.hpp"

namespace parley::actors::timer {

/// Spawns a node's timer service. A negotiation, ballot or auction sends it
/// `arm_timer{due_ms, generation}` and gets `timer_due{generation}` back when
/// it is due (never earlier; stale ones are the receiver's to ignore).
///
/// Why not a `delayed_send` per timer: in CAF 0.17 every one of them wakes the
/// clock thread (a futex call, and lock contention between the workers) and
/// keeps the actor it goes to alive until it fires, which a finished
/// negotiation's timer does 30 s after the end. The service keeps its timers in a heap (a
/// few dozen bytes each) and holds one `delayed_send` to itself, for the
/// earliest; arming a later timer costs one ordinary message. Time is still
/// a message: the service's own wake-up is a delayed `timer_tick`.
timer_actor spawn_timer_service(caf::actor_system& sys);

} // namespace parley::actors::timer
