#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// Whoever arms a timer (a negotiation, ballot or auction) gets it back when
/// it is due.
using timer_client_actor = caf::typed_actor<caf::reacts_to<messages::timer_due>>;

/// A node's timer service (see actors/timer/actor.hpp): negotiations arm
/// their timers with it; it wakes itself with `timer_tick`.
using timer_actor = caf::typed_actor<caf::reacts_to<messages::arm_timer>,
                                     caf::reacts_to<messages::timer_tick>>;

} // namespace parley::actors
