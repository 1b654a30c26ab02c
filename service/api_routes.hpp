#pragma once

namespace parley::service {

struct exchange;

// The routes of `/api/v1`'s agents, rooms and negotiations, each a
// request/response to the gateway actor, and the list of negotiations, the
// statistics and maintenance, each to the store actor (docs/api.md).
// route_table.cpp says which method and path each answers.

/// `GET /api/v1/agents`: every agent.
void list_agents(exchange& x);
/// `POST /api/v1/agents`: registers an agent.
void add_agent(exchange& x);
/// `GET /api/v1/agents/{id}`.
void get_agent(exchange& x);
/// `DELETE /api/v1/agents/{id}`: stops and forgets the agent.
void delete_agent(exchange& x);
/// `GET /api/v1/agents/{id}/turns`: open negotiations awaiting its move.
void agent_turns(exchange& x);

/// `POST /api/v1/rooms`: builds a room.
void add_room(exchange& x);
/// `GET /api/v1/rooms/{id}`.
void get_room(exchange& x);

/// `GET /api/v1/negotiations?...`: the store's query.
void list_negotiations(exchange& x);
/// `POST /api/v1/negotiations`: opens a negotiation.
void start_negotiation(exchange& x);
/// `GET /api/v1/negotiations/{id}`.
void get_negotiation(exchange& x);
/// `POST /api/v1/negotiations/{id}/messages`: a counter, accept or reject.
void post_move(exchange& x);

/// `GET /api/v1/stats`: the store's statistics.
void stats(exchange& x);
/// `POST /api/v1/maintenance/expire`: expires what is past its deadline.
void expire(exchange& x);

} // namespace parley::service
