#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// Where an agent sends its answers in a negotiation: the negotiation
/// itself, or across nodes its room. Both accept the four agent messages.
using offer_receiver = caf::typed_actor<
    caf::reacts_to<messages::agent_proposal>, caf::reacts_to<messages::agent_counter>,
    caf::reacts_to<messages::agent_accept>, caf::reacts_to<messages::agent_reject>>;

/// What every agent accepts, whatever its brain (see actors/agent/actor.hpp and
/// llm_agent.hpp): orders to open a negotiation and the room's answers, offers handed
/// on with their `answer_terms`, the other party's accept or reject, the expiry of a
/// negotiation it is in (LLM agents only get it), conversation lines and triggers from
/// its rooms, the tools its rooms set, barriers, and invitations and orders to vote and
/// bid (docs/protocols/ballots-and-auctions.md).
using agent_actor = caf::typed_actor<
    caf::reacts_to<messages::initiate_negotiation>,
    caf::reacts_to<messages::negotiation_opened>,
    caf::reacts_to<messages::problem_event>,
    caf::reacts_to<messages::agent_proposal, messages::answer_terms>,
    caf::reacts_to<messages::agent_counter, messages::answer_terms>,
    caf::reacts_to<messages::agent_accept>, caf::reacts_to<messages::agent_reject>,
    caf::reacts_to<messages::negotiation_event>,
    caf::reacts_to<messages::transcript_entry>,
    caf::reacts_to<messages::negotiation_trigger>, caf::reacts_to<messages::set_tools>,
    caf::reacts_to<messages::barrier>, caf::reacts_to<messages::ballot_invite>,
    caf::reacts_to<messages::auction_invite>, caf::reacts_to<messages::cast_vote>,
    caf::reacts_to<messages::place_bid>>;

} // namespace parley::actors
