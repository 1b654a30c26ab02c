#pragma once

#include <cstdint>

#include "caf/fwd.hpp"

#include "actors/agent/interface.hpp"
#include "actors/negotiation/interface.hpp"
#include "actors/negotiation/rules.hpp"
#include "actors/room/interface.hpp"
#include "messages/event_sink.hpp"

namespace parley::actors::negotiation {

/// Who a negotiation talks to. The agents may be on another node.
struct peers {
  agent_actor initiator;
  agent_actor responder;
  /// Its room: gets the terminal event (its history and "one active" rule)
  /// and owns the timer.
  room_actor room;
  messages::event_sink events;
  /// The room's number for this negotiation, carried by its timers.
  std::uint64_t number = 0;
  /// When the room passed the opening proposal on (the first reply's round
  /// trip is measured from it), in Unix microseconds.
  std::int64_t offered_at_us = 0;
};

/// Spawns the actor shell around `core`, a negotiation its room just opened
/// (the room carried out the opening's effects). Lazily: nothing runs until
/// the first message arrives.
///
/// It applies the four agent messages and the timer its room forwards, and
/// carries out what the rules decide: a refused input is published as a
/// problem_event and changes nothing; the agent message is relayed to the
/// other party (as itself, or through the room when that party is on another
/// node, so that no node creates a proxy per negotiation); `updated` is
/// published only if someone subscribed to it; the terminal event (with the
/// final record, shared) goes to the room, to the bus if wanted, and on
/// expiry to both parties; a re-armed timer is asked of the room. A barrier
/// goes on to the bus. The actor quits when the negotiation ends, or with
/// E021 "Negotiation aborted" when its room tells it it stopped.
negotiation_actor spawn_negotiation(caf::local_actor* parent, rules core, peers with);

} // namespace parley::actors::negotiation
