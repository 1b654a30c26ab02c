#pragma once

#include <cstdint>
#include <string>

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
// Complete: whoever checks an interface against this one needs its types.
#include "messages/cluster_event.hpp"
#include "messages/fwd.hpp"

namespace parley::actors {

/// What a `parley serve --cluster` node publishes on its node port
/// (cluster/move_relay.hpp, docs/cluster.md "Any node answers"): the moves
/// of external agents that another node of the cluster received for a
/// negotiation this node runs, each answered as this node's gateway answers
/// it (the record after the move, committed; or its coded error); and the
/// openings another node placed on this one (`place, room_id,
/// start_negotiation`: docs/cluster.md, "Placement"), answered with the
/// opened record; the answers of external channel members to the
/// channels this node runs (`offer_response`, `proposal_feedback`), each
/// handed to this node's member of its agent and answered as that member
/// answers it (true: taken and committed; false: a replay, E011; or its
/// coded error: actors/channel/answer_router.hpp); and the events of another
/// node for this node's event streams (a `cluster_event_batch`:
/// docs/cluster.md, "The cluster's events"), answered with how many were
/// new. Nothing else of the node is reachable through it.
using move_relay_actor = caf::typed_actor<
    caf::replies_to<messages::place_atom, std::string,
                    messages::start_negotiation>::with<messages::negotiation_record>,
    caf::replies_to<messages::agent_counter>::with<messages::negotiation_record>,
    caf::replies_to<messages::agent_accept>::with<messages::negotiation_record>,
    caf::replies_to<messages::agent_reject>::with<messages::negotiation_record>,
    caf::replies_to<messages::offer_response>::with<bool>,
    caf::replies_to<messages::proposal_feedback>::with<bool>,
    caf::replies_to<messages::cluster_event_batch>::with<std::uint64_t>>;

} // namespace parley::actors
