#pragma once

#include <string>
#include <vector>

#include "caf/replies_to.hpp"
#include "caf/type_id.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"
#include "messages/handles/bus.hpp"

namespace parley::actors {

/// The HTTP API's one way into the runtime (see actors/gateway/actor.hpp):
/// a bus subscriber that registers agents, builds rooms, opens negotiations
/// and passes on external agents' moves, each answered once its outcome is
/// known. Errors are coded Parley errors (messages/type_ids.hpp's
/// make_error; a second string in the context is JSON `details`).
///
/// - `put, agent_spec`: registers an agent; `get, agent, id`,
///   `list, agent` and `delete, agent, id` read and remove them;
/// - `put, room_request`: builds a room of registered agents; `get, room, id`;
/// - `put, room_id, start_negotiation`: opens a negotiation (in the pair's
///   own room when `room_id` is empty), answered with the opened record; a
///   cluster's node places one in a pair's room on the node that ranks first
///   for the room (docs/cluster.md, "Placement"), and `place, room_id,
///   start_negotiation` is such an opening, placed here by another node;
/// - the three moves of an external agent, answered with the record after
///   the move (a replayed message id: E011 with the first result); the
///   same after `relayed` for a move another node forwarded;
/// - `get, id`: one negotiation's record; `list, turns, agent`: the open
///   negotiations awaiting that agent's move;
/// - `recover`: restores the store's agents and rooms and resumes its open
///   negotiations (crash recovery), answered once every one is handed to
///   its room, reading the store page by page; `parley serve` reports
///   ready only after it;
/// - `timeout` is its own: its one timer, for the earliest deadline of the
///   requests it has not answered yet.
using gateway_actor = subscriber_actor::extend<
    caf::replies_to<caf::put_atom, messages::agent_spec>::with<messages::agent_spec>,
    caf::replies_to<caf::get_atom, messages::agent_atom,
                    std::string>::with<messages::agent_spec>,
    caf::replies_to<messages::list_atom,
                    messages::agent_atom>::with<std::vector<messages::agent_spec>>,
    caf::replies_to<caf::delete_atom, messages::agent_atom,
                    std::string>::with<messages::agent_spec>,
    caf::replies_to<caf::put_atom, messages::room_request>::with<messages::room_view>,
    caf::replies_to<caf::get_atom, messages::room_atom,
                    std::string>::with<messages::room_view>,
    caf::replies_to<caf::put_atom, std::string,
                    messages::start_negotiation>::with<messages::negotiation_record>,
    caf::replies_to<messages::place_atom, std::string,
                    messages::start_negotiation>::with<messages::negotiation_record>,
    caf::replies_to<messages::agent_counter>::with<messages::negotiation_record>,
    caf::replies_to<messages::agent_accept>::with<messages::negotiation_record>,
    caf::replies_to<messages::agent_reject>::with<messages::negotiation_record>,
    caf::replies_to<messages::relayed_atom,
                    messages::agent_counter>::with<messages::negotiation_record>,
    caf::replies_to<messages::relayed_atom,
                    messages::agent_accept>::with<messages::negotiation_record>,
    caf::replies_to<messages::relayed_atom,
                    messages::agent_reject>::with<messages::negotiation_record>,
    caf::replies_to<caf::get_atom, std::string>::with<messages::negotiation_record>,
    caf::replies_to<messages::list_atom, messages::turns_atom,
                    std::string>::with<std::vector<messages::negotiation_record>>,
    caf::replies_to<messages::recover_atom>::with<messages::recovery_report>,
    caf::reacts_to<caf::timeout_atom>>;

} // namespace parley::actors
