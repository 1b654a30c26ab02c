#pragma once

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "actors/negotiation/rules.hpp"

namespace parley::actors::negotiation {

/// Who a negotiation talks to. Any handle may be remote.
struct peers {
  caf::actor initiator;
  caf::actor responder;
  /// Receives the terminal event (its history and "one active" rule).
  caf::actor room;
  caf::actor bus;
};

/// Spawns the actor shell around `core`, an opened negotiation, and carries
/// out `opening` (the effects of opening it: the started event, the proposal
/// to the responder, the first timer).
///
/// The actor accepts the four agent messages, its own `negotiation_timer`, and
/// a `barrier`, which it passes on to the bus.
/// Every lifecycle event goes to the bus with the whole record; the terminal
/// one goes to the room too (and on expiry to both parties, whom no agent
/// message tells). Refused input is published as a problem_event and changes
/// nothing. The actor quits when the negotiation ends, or when its room
/// terminates (publishing E021 "Negotiation aborted").
caf::actor spawn_negotiation(caf::local_actor* parent, rules core, effects opening,
                             peers with);

} // namespace parley::actors::negotiation
