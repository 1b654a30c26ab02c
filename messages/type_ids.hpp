#pragma once

// The one type-ID block of Parley: every type that crosses an actor boundary
// is listed here, and `register_types` adds them to an actor system config, so
// that every node knows them (an unregistered type arrives EMPTY remotely).
// A `std::vector` of a type must be listed on its own.

#include <vector>

#include "caf/atom.hpp"
#include "caf/fwd.hpp"
#include "caf/type_id.hpp"

#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/decision.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/negotiation_settings.hpp"
#include "messages/proposal.hpp"

namespace parley::messages {

/// A generation-tagged timeout a negotiation sends to itself.
struct negotiation_timer {
  std::uint64_t generation = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_timer& x) {
  return f(caf::meta::type_name("negotiation_timer"), x.generation);
}

/// A decision an agent's brain reached later (think time, or an asynchronous
/// brain): the agent carries it out when this arrives.
struct deferred_reply {
  std::string negotiation_id;
  messages::decision decision;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, deferred_reply& x) {
  return f(caf::meta::type_name("deferred_reply"), x.negotiation_id, x.decision);
}

// Atoms (at most 10 characters).
using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
using history_atom = caf::atom_constant<caf::atom("history")>;
using step_atom = caf::atom_constant<caf::atom("step")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
using shutdown_atom = caf::atom_constant<caf::atom("shutdown")>;
using echo_atom = caf::atom_constant<caf::atom("echo")>;

} // namespace parley::messages

CAF_BEGIN_TYPE_ID_BLOCK(parley, caf::first_custom_type_id)

CAF_ADD_TYPE_ID(parley, (parley::messages::json_object))
CAF_ADD_TYPE_ID(parley, (parley::messages::proposal))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_round))
CAF_ADD_TYPE_ID(parley, (parley::messages::incentive_split))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_record))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::negotiation_record>))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_settings))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_proposal))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_counter))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_accept))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_reject))
CAF_ADD_TYPE_ID(parley, (parley::messages::start_negotiation))
CAF_ADD_TYPE_ID(parley, (parley::messages::initiate_negotiation))
CAF_ADD_TYPE_ID(parley, (parley::messages::join_room))
CAF_ADD_TYPE_ID(parley, (parley::messages::room_spec))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::room_spec>))
CAF_ADD_TYPE_ID(parley, (parley::messages::barrier))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::problem_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::run_summary))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_preferences))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_profile))
CAF_ADD_TYPE_ID(parley, (parley::messages::proposal_patch))
CAF_ADD_TYPE_ID(parley, (parley::messages::script_reply))
CAF_ADD_TYPE_ID(parley, (parley::messages::brain_spec))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_spec))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_timer))
CAF_ADD_TYPE_ID(parley, (parley::messages::decision))
CAF_ADD_TYPE_ID(parley, (parley::messages::deferred_reply))
CAF_ADD_TYPE_ID(parley, (parley::messages::error_code))
CAF_ADD_TYPE_ID(parley, (parley::messages::llm_request))
CAF_ADD_TYPE_ID(parley, (parley::messages::llm_response))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::transcript_entry))
CAF_ADD_TYPE_ID(parley, (parley::messages::transcript_flush))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_trigger))
CAF_ADD_TYPE_ID(parley, (parley::messages::ballot_spec))
CAF_ADD_TYPE_ID(parley, (parley::messages::vote))
CAF_ADD_TYPE_ID(parley, (parley::messages::ballot_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::auction_spec))
CAF_ADD_TYPE_ID(parley, (parley::messages::bid))
CAF_ADD_TYPE_ID(parley, (parley::messages::auction_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::ballot_invite))
CAF_ADD_TYPE_ID(parley, (parley::messages::auction_invite))
CAF_ADD_TYPE_ID(parley, (parley::messages::cast_vote))
CAF_ADD_TYPE_ID(parley, (parley::messages::place_bid))
CAF_ADD_TYPE_ID(parley, (parley::messages::consensus_timer))
CAF_ADD_TYPE_ID(parley, (parley::messages::tool_definition))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::tool_definition>))
CAF_ADD_TYPE_ID(parley, (parley::messages::set_tools))
CAF_ADD_TYPE_ID(parley, (parley::messages::llm_attempt))

CAF_END_TYPE_ID_BLOCK(parley)

namespace parley::messages {

/// Registers every Parley wire type and the error category with `cfg`.
void register_types(caf::actor_system_config& cfg);

/// Makes a CAF error in Parley's category.
caf::error make_error(error_code code, std::string message);

} // namespace parley::messages
