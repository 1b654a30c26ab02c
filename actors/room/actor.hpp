#pragma once

#include "caf/fwd.hpp"

#include "actors/room/interface.hpp"
#include "actors/timer/interface.hpp"
#include "messages/commands.hpp"

namespace parley::actors::room {

/// Spawns a room (lazily: nothing runs until its first message).
///
/// A room is seed 000's NegotiationService for one room. It hosts at most one
/// active negotiation at a time; a `start_negotiation` it refuses (E012
/// "Negotiation already in progress", an unknown party, a bad proposal) is
/// published and sent to the initiator as the same problem_event. It opens
/// a negotiation itself: builds the rules, spawns the negotiation actor
/// (lazily), tells the initiator `negotiation_opened`, publishes `started`
/// (when someone listens) and passes the opening proposal to the responder on
/// the negotiation's behalf. It owns the negotiation's timer, so that an
/// ended negotiation is freed at once (CAF 0.17 cannot cancel a delayed
/// message): it arms it with `timers` (its node's timer service), re-arms it
/// when the negotiation asks (`arm_timer`) and forwards it while that
/// negotiation is active.
///
/// Agent messages sent to the room are routed by negotiation id ("current"
/// for the active one, "previous" for the last ended one) and dropped with a
/// warning for an ended (E016) or unknown (E015) one. The terminal event of
/// its negotiation frees the room and goes to its history (shared, not
/// copied). `history_atom` answers the ended negotiations, oldest first.
/// Transcript lines go to every participant and the trigger detector; it sets
/// its LLM participants' tools (`set_tools`, seed 001) when it starts and
/// when one joins. A `barrier` goes on behind everything sent before it (to
/// the active negotiation, else to the bus). When the room stops, its active
/// negotiation aborts with E021.
room_actor spawn_room(caf::actor_system& sys, messages::room_spec spec,
                      timer_actor timers);

} // namespace parley::actors::room
