#pragma once

// The one type-ID block of Parley: every type that crosses an actor boundary
// is listed here, and `register_types` adds them to an actor system config, so
// that every node knows them (an unregistered type arrives EMPTY remotely).
// A `std::vector` of a type must be listed on its own.

#include <vector>

#include "caf/fwd.hpp"
#include "caf/type_id.hpp"

// Forward declarations are enough to name a type here, as in CAF's own
// caf/io/fwd.hpp: a file that sends a message includes its definition itself.
#include "messages/fwd.hpp"
#include "messages/handles/room.hpp"
#include "messages/handles/store.hpp"

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
CAF_ADD_TYPE_ID(parley, (parley::messages::answer_terms))
CAF_ADD_TYPE_ID(parley, (parley::messages::start_negotiation))
CAF_ADD_TYPE_ID(parley, (parley::messages::initiate_negotiation))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_opened))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_opening))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_peers))
CAF_ADD_TYPE_ID(parley, (parley::messages::open_negotiation))
CAF_ADD_TYPE_ID(parley, (parley::messages::resume_negotiation))
CAF_ADD_TYPE_ID(parley, (parley::messages::room_member))
CAF_ADD_TYPE_ID(parley, (parley::messages::join_room))
CAF_ADD_TYPE_ID(parley, (parley::messages::room_spec))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::room_spec>))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::actors::room_actor>))
CAF_ADD_TYPE_ID(parley, (parley::actors::store_actor))
CAF_ADD_TYPE_ID(parley, (parley::actors::intake_actor))
CAF_ADD_TYPE_ID(parley, (parley::messages::barrier))
CAF_ADD_TYPE_ID(parley, (parley::messages::routed))
CAF_ADD_TYPE_ID(parley, (parley::messages::routed_batch))
CAF_ADD_TYPE_ID(parley, (parley::messages::negotiation_event))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::negotiation_event>))
CAF_ADD_TYPE_ID(parley, (parley::messages::shared_record))
CAF_ADD_TYPE_ID(parley, (parley::messages::topic_set))
CAF_ADD_TYPE_ID(parley, (parley::messages::event_sink))
CAF_ADD_TYPE_ID(parley, (parley::messages::problem_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::run_summary))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_preferences))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_profile))
CAF_ADD_TYPE_ID(parley, (parley::messages::proposal_patch))
CAF_ADD_TYPE_ID(parley, (parley::messages::script_reply))
CAF_ADD_TYPE_ID(parley, (parley::messages::brain_spec))
CAF_ADD_TYPE_ID(parley, (parley::messages::agent_spec))
CAF_ADD_TYPE_ID(parley, (parley::messages::timer_due))
CAF_ADD_TYPE_ID(parley, (parley::messages::arm_timer))
CAF_ADD_TYPE_ID(parley, (parley::messages::timer_tick))
CAF_ADD_TYPE_ID(parley, (parley::messages::decision))
CAF_ADD_TYPE_ID(parley, (parley::messages::deferred_reply))
CAF_ADD_TYPE_ID(parley, (parley::messages::start_deadline))
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
CAF_ADD_TYPE_ID(parley, (parley::messages::consensus_peers))
CAF_ADD_TYPE_ID(parley, (parley::messages::open_ballot))
CAF_ADD_TYPE_ID(parley, (parley::messages::open_auction))
CAF_ADD_TYPE_ID(parley, (parley::messages::tool_definition))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::tool_definition>))
CAF_ADD_TYPE_ID(parley, (parley::messages::set_tools))
CAF_ADD_TYPE_ID(parley, (parley::messages::llm_attempt))
CAF_ADD_TYPE_ID(parley, (parley::messages::store_query))
CAF_ADD_TYPE_ID(parley, (parley::messages::store_page))
CAF_ADD_TYPE_ID(parley, (parley::messages::store_stats))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::agent_spec>))
CAF_ADD_TYPE_ID(parley, (parley::messages::room_request))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::room_request>))
CAF_ADD_TYPE_ID(parley, (parley::messages::room_view))
CAF_ADD_TYPE_ID(parley, (parley::messages::recovery_report))
CAF_ADD_TYPE_ID(parley, (parley::messages::offer_response))
CAF_ADD_TYPE_ID(parley, (parley::messages::proposal_feedback))
CAF_ADD_TYPE_ID(parley, (parley::messages::demand_offer))
CAF_ADD_TYPE_ID(parley, (parley::messages::proposal_review))
CAF_ADD_TYPE_ID(parley, (parley::messages::channel_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::register_member))
CAF_ADD_TYPE_ID(parley, (parley::messages::submit_demand))
CAF_ADD_TYPE_ID(parley, (parley::messages::demand_receipt))
CAF_ADD_TYPE_ID(parley, (parley::messages::demand_view))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::channel_event>))
CAF_ADD_TYPE_ID(parley, (parley::messages::channel_record))
CAF_ADD_TYPE_ID(parley, (std::vector<parley::messages::channel_record>))
CAF_ADD_TYPE_ID(parley, (parley::messages::cluster_event))
CAF_ADD_TYPE_ID(parley, (parley::messages::cluster_event_batch))

CAF_END_TYPE_ID_BLOCK(parley)

namespace parley::messages {

/// Registers every Parley wire type and the error category with `cfg`.
void register_types(caf::actor_system_config& cfg);

/// Makes a CAF error in Parley's category.
caf::error make_error(error_code code, std::string message);

/// Makes a CAF error in Parley's category whose context also carries
/// `details_json` (a JSON value as text: the HTTP API's `details`).
caf::error make_error(error_code code, std::string message, std::string details_json);

/// Whether `x` is in Parley's category (its code is an error_code).
bool is_parley_error(const caf::error& x);

} // namespace parley::messages
