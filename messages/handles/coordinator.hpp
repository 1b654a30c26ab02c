#pragma once

#include <string>
#include <vector>

#include "caf/atom.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"
#include "messages/handles/store.hpp"

namespace parley::actors {

/// A world's coordinator (see actors/coordinator/actor.hpp;
/// docs/protocols/channels.md, "Roles"), which turns demands into channels. Errors are
/// coded Parley errors (messages/type_ids.hpp's make_error).
///
/// - `register_member`: registers a channel member, or replaces the one with
///   its agent id (E001 without an agent id or a handle); a member whose
///   actor ends is forgotten, so no later demand picks it;
/// - `submit_demand` (docs/protocols/channels.md, "Demands"), answered once the
///   demand's channel is open (E001: empty or oversized input; E034: the demand id is
///   in use; E005: nobody to take it up; E019: the world's channel settings are
///   invalid);
/// - `get, demand_id`: where a demand stands (E002: no such demand);
/// - `resume, events`: after a restart, takes up again the open channels
///   whose stored events (channel by channel, each in order) are `events`,
///   and their demands (the store's, when it has one); answers how many it resumed and
///   why it could not resume the others (recovery_report's `channels` and `skipped`);
/// - `channel_event`: how its own channels ended (it is their reporter);
/// - `llm_response` is its model's answer (an LLM coordinator brain);
/// - `put, store`: from now on, each demand's submission is written to the
///   store (its receipt answered once committed), a demand not known here
///   is looked up there (`get`), and a resumed demand gets its user, raw
///   input and understanding back from it.
using coordinator_actor = caf::typed_actor<
    caf::reacts_to<messages::register_member>,
    caf::replies_to<messages::submit_demand>::with<messages::demand_receipt>,
    caf::replies_to<caf::get_atom, std::string>::with<messages::demand_view>,
    caf::replies_to<messages::resume_atom, std::vector<messages::channel_event>>::with<
        messages::recovery_report>,
    caf::reacts_to<messages::channel_event>, caf::reacts_to<messages::llm_response>,
    caf::reacts_to<caf::put_atom, store_actor>>;

} // namespace parley::actors
