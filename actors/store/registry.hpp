#pragma once

#include <string>
#include <vector>

#include "actors/store/query.hpp"
#include "messages/agent_profile.hpp"
#include "messages/api.hpp"

namespace parley::actors::store {

/// The two tables of migration 002: the agents and rooms `parley serve`
/// registered over the API, kept so that a restarted server can re-spawn
/// them before it resumes their negotiations (crash recovery).
enum class registry { agents, rooms };

/// One row of either table: its id and its JSON column (parley_agents.spec,
/// parley_rooms.members) as text.
struct registry_row {
  std::string id;
  std::string json;
};

/// The row of agent `x`: its agent_spec as messages/json.hpp writes it.
registry_row agent_row(const messages::agent_spec& x);

/// The row of room `x`: its members as a JSON array of agent ids.
registry_row room_row(const messages::room_request& x);

/// The agent or room a row stands for. Throws messages::json_error when the
/// JSON does not have the shape the store writes.
messages::agent_spec agent_of(const registry_row& row);
messages::room_request room_of(const registry_row& row);

/// The statements on `kind`'s table in `d`'s SQL. upsert_sql: parameters id
/// and JSON; inserts the row, or replaces the JSON of the row with that id
/// (which keeps its created_at). delete_sql: parameter id. load_sql: id and
/// JSON (as text) of every row, in creation order.
std::string upsert_sql(registry kind, dialect d);
std::string delete_sql(registry kind, dialect d);
std::string load_sql(registry kind, dialect d);

} // namespace parley::actors::store
