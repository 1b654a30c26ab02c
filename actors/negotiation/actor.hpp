#pragma once

#include <memory>

#include "caf/fwd.hpp"

#include "actors/common/actor_pool.hpp"
#include "messages/handles/negotiation.hpp"

namespace parley::actors::negotiation {

/// Spawns a negotiation actor of `home`, lazily (nothing runs until its first
/// message); rooms get one from their node's pool rather than from here.
///
/// It runs one negotiation at a time (docs/protocols/bilateral.md;
/// actors/negotiation/rules.hpp). `open_negotiation` starts one: it publishes `started`
/// (when someone listens), answers the initiator `negotiation_opened`, passes the
/// opening proposal to the responder and arms its timer with the node's timer service.
/// Then it applies the four agent messages and its timer and carries out what the rules
/// decide: a refused input is published as a problem_event and changes nothing; the
/// agent message is relayed to the other party (as the negotiation, so the answer comes
/// straight back, also across nodes), an offer together with that party's
/// `answer_terms`; `updated` is published only if someone subscribed to it; the
/// terminal event (with the final record, shared) goes to the room, on expiry to the
/// parties that keep state per negotiation (`room_member::hears_expiry`), and to its
/// subscribers. Then the actor goes back to `home` for the next negotiation; timers and
/// messages meant for an earlier one are told apart and dropped.
///
/// Subscribers that settle (the store under `parley run` and `parley bench`,
/// `messages::subscription::settle_ms`) hear nothing of a negotiation while
/// it is younger than that: most negotiations of a load test end sooner, and
/// their final event (`unannounced` set) is all the store writes. One that
/// lives longer announces itself at its first event after the quiet, or at
/// its timer, armed no later than the quiet's end: one `started` with the
/// record so far, then every event. An abort by its room announces it too.
///
/// `resume_negotiation` takes up a negotiation the store kept open across a
/// restart (rules::resume): no `started` event; the latest offer goes again
/// to the party whose move it is and the remaining deadline is armed, or a
/// deadline that passed meanwhile expires it at once.
///
/// A `barrier` from its room is answered (the room passes it on behind what
/// the negotiation published). `shutdown` from its room aborts the
/// negotiation it names with E021 and stops the actor.
negotiation_actor spawn_negotiation(caf::actor_system& sys,
                                    std::weak_ptr<actor_pool<negotiation_actor>> home);

} // namespace parley::actors::negotiation
