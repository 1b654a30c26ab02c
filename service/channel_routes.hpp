#pragma once

#include <string>

#include "service/exchange.hpp"

namespace parley::service {

/// `POST /api/v1/demand/submit` (docs/protocols/channels.md, "Demands", to the
/// coordinator) and `GET /api/v1/demands/{id}` (where the demand and its channels
/// stand).
void demands(exchange& x);

/// `GET /api/v1/channels/{id}` (the channel's committed row in the store:
/// status, round, responses, feedback, proposal) and
/// `POST /api/v1/channels/{id}/messages` (an external agent's
/// offer_response or proposal_feedback, to its external member, answered
/// once the channel took it).
void channels(exchange& x);

/// `GET /api/v1/agents/{id}/inbox`: the demand_offers and proposal_reviews
/// an external channel member has not answered yet.
void agent_inbox(exchange& x, const std::string& agent_id);

} // namespace parley::service
