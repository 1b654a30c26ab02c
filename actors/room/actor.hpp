#pragma once

#include <memory>
#include <vector>

#include "caf/fwd.hpp"

#include "actors/negotiation/pool.hpp"
#include "messages/commands.hpp"
#include "messages/handles/room.hpp"
#include "messages/handles/timer.hpp"

namespace parley::actors::room {

/// Spawns a room (lazily: nothing runs until its first message).
///
/// A room (docs/protocols/bilateral.md, "Rooms") hosts at most one active negotiation
/// at a time; a `start_negotiation` it refuses (E012 "Negotiation already in progress",
/// an unknown party, a bad proposal) is published and sent to the initiator as the same
/// problem_event. One it accepts opens in a negotiation actor from its node's
/// `negotiations` pool (with the node's `timers`), which carries the opening out. A
/// `resume_negotiation` (crash recovery) is taken up the same way, unless another
/// negotiation is active (E012) or a party is not a participant (E008), published as an
/// error. The room relays agent messages sent to it by negotiation id ("current" for
/// the active one, "previous" for the last ended one) and drops them with a warning for
/// an ended (E016) or unknown (E015) one. The terminal event of its negotiation frees
/// the room and goes to its history (packed). `history_atom` answers the ended
/// negotiations, oldest first. Transcript lines go to every participant and the trigger
/// detector; it sets its LLM participants' tools (`set_tools`,
/// docs/protocols/llm-agent.md, "Tools") when it starts and when one joins. A `barrier`
/// goes on to the bus behind everything sent before it (through the active negotiation,
/// if any). When the room stops, its active negotiation aborts with E021.
room_actor spawn_room(caf::actor_system& sys, messages::room_spec spec,
                      timer_actor timers,
                      std::shared_ptr<negotiation::pool> negotiations);

/// Spawns rooms like `spawn_room`, in order. Rooms with the same settings,
/// history limit and event sink share one copy of them (a load test has a
/// million rooms, and CAF's own part of an actor is already 1 KB).
std::vector<room_actor> spawn_rooms(caf::actor_system& sys,
                                    std::vector<messages::room_spec> specs,
                                    timer_actor timers,
                                    std::shared_ptr<negotiation::pool> negotiations);

} // namespace parley::actors::room
