#pragma once

#include <string>
#include <vector>

#include "actors/store/query.hpp"
#include "messages/agent_profile.hpp"
#include "messages/api.hpp"
#include "messages/coordinator_messages.hpp"

namespace parley::actors::store {

/// The tables of rows kept by id, each with one JSON column: the agents and
/// rooms `parley serve` registered over the API (migration 002), kept so
/// that a restarted server can re-spawn them before it resumes their
/// negotiations (crash recovery), and the demands submitted over it
/// (migration 005), kept so that a demand is found after a restart.
enum class registry { agents, rooms, demands };

/// One row of any of them: its id and its JSON column (parley_agents.spec,
/// parley_rooms.members, parley_demands.demand) as text.
struct registry_row {
  std::string id;
  std::string json;
};

/// The row of agent `x`: its agent_spec as messages/json.hpp writes it.
registry_row agent_row(const messages::agent_spec& x);

/// The row of room `x`: its members as a JSON array of agent ids.
registry_row room_row(const messages::room_request& x);

/// The row of demand `x`: its view without channels (they have rows of
/// their own).
registry_row demand_row(const messages::demand_view& x);

/// The agent, room or demand a row stands for. Throws messages::json_error when the
/// JSON does not have the shape the store writes.
messages::agent_spec agent_of(const registry_row& row);
messages::room_request room_of(const registry_row& row);
messages::demand_view demand_of(const registry_row& row);

/// The statements on `kind`'s table in `d`'s SQL. upsert_sql: parameters id
/// and JSON; inserts the row, or replaces the JSON of the row with that id
/// (which keeps its created_at). delete_sql: parameter id. load_sql:
/// parameters `after` and `limit`; id and JSON (as text) of at most `limit`
/// rows with an id above `after`, in id order. get_sql: parameter id; id and
/// JSON of that row.
std::string upsert_sql(registry kind, dialect d);
std::string delete_sql(registry kind, dialect d);
std::string load_sql(registry kind, dialect d);
std::string get_sql(registry kind, dialect d);

} // namespace parley::actors::store
