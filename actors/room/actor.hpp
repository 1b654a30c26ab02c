#pragma once

#include "caf/fwd.hpp"

#include "messages/commands.hpp"

namespace parley::actors::room {

/// Spawns a room (lazily: nothing runs until its first message).
///
/// A room hosts at most one active negotiation at a time (a second start gets
/// E012 "Negotiation already in progress"), spawns the negotiation actor on
/// its own node, relays agent messages addressed to it by negotiation id
/// ("current" for the active one), keeps the history of ended negotiations and
/// publishes its problems to the bus. When it starts (and when an LLM agent
/// joins), it sets the tools of its LLM participants (`set_tools`, seed 001).
///
/// Messages: `start_negotiation` -> `negotiation_record` (the opened record) or
/// a coded error; the four agent messages; `join_room`; `history_atom` ->
/// `std::vector<negotiation_record>`; `barrier`, passed on behind everything
/// sent before it (to the active negotiation, else to the bus).
caf::actor spawn_room(caf::actor_system& sys, messages::room_spec spec);

} // namespace parley::actors::room
