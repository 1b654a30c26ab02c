#pragma once

#include <string>

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"

namespace parley::actors {

/// A negotiation actor (see actors/negotiation/actor.hpp): the negotiation
/// its room opens or resumes in it, the four agent messages of its parties, its timer,
/// a barrier, and its room's `shutdown` (naming the negotiation) when the
/// room stops.
using negotiation_actor = caf::typed_actor<
    caf::reacts_to<messages::open_negotiation>,
    caf::reacts_to<messages::resume_negotiation>,
    caf::reacts_to<messages::agent_proposal>, caf::reacts_to<messages::agent_counter>,
    caf::reacts_to<messages::agent_accept>, caf::reacts_to<messages::agent_reject>,
    caf::reacts_to<messages::timer_due>, caf::reacts_to<messages::barrier>,
    caf::reacts_to<messages::shutdown_atom, std::string, std::string>>;

} // namespace parley::actors
