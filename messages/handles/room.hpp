#pragma once

#include <vector>

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"

namespace parley::actors {

/// A room (see actors/room/actor.hpp): starts, resumptions after a restart,
/// agent messages addressed by
/// negotiation id, its negotiation's closing event, transcript lines, new
/// participants, barriers and history requests.
using room_actor = caf::typed_actor<
    caf::reacts_to<messages::start_negotiation>,
    caf::reacts_to<messages::resume_negotiation>,
    caf::reacts_to<messages::agent_proposal>, caf::reacts_to<messages::agent_counter>,
    caf::reacts_to<messages::agent_accept>, caf::reacts_to<messages::agent_reject>,
    caf::reacts_to<messages::negotiation_event>,
    caf::reacts_to<messages::transcript_entry>, caf::reacts_to<messages::barrier>,
    caf::reacts_to<messages::join_room>,
    caf::replies_to<messages::history_atom>::with<
        std::vector<messages::negotiation_record>>>;

} // namespace parley::actors
