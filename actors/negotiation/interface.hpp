#pragma once

#include <string>

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"

namespace parley::actors {

/// One bilateral negotiation (see actors/negotiation/actor.hpp): the four
/// agent messages of its parties, the timer its room forwards, a barrier, and
/// its room's `shutdown` when the room stops.
using negotiation_actor = caf::typed_actor<
    caf::reacts_to<messages::agent_proposal>, caf::reacts_to<messages::agent_counter>,
    caf::reacts_to<messages::agent_accept>, caf::reacts_to<messages::agent_reject>,
    caf::reacts_to<messages::negotiation_timer>, caf::reacts_to<messages::barrier>,
    caf::reacts_to<messages::shutdown_atom, std::string>>;

} // namespace parley::actors
