#pragma once

namespace parley::service {

struct exchange;

// The channel API's routes (docs/channels.md; route_table.cpp says which
// method and path each answers).

/// `POST /api/v1/demand/submit` (docs/protocols/channels.md, "Demands"), to the
/// coordinator.
void submit_demand(exchange& x);

/// `GET /api/v1/demands/{id}`: where the demand and its channels stand.
void get_demand(exchange& x);

/// `GET /api/v1/channels/{id}`: the channel's committed row in the store
/// (status, round, responses, feedback, proposal).
void get_channel(exchange& x);

/// `POST /api/v1/channels/{id}/messages`: an external agent's offer_response
/// or proposal_feedback, to its external member, answered once the channel
/// took it.
void post_channel_message(exchange& x);

/// `GET /api/v1/agents/{id}/inbox`: the demand_offers and proposal_reviews
/// an external channel member has not answered yet.
void agent_inbox(exchange& x);

} // namespace parley::service
