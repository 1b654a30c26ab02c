#include "actors/store/registry.hpp"

#include "messages/json.hpp"

namespace parley::actors::store {

namespace {

const char* table_of(registry kind) {
  switch (kind) {
  case registry::agents:
    return "parley_agents";
  case registry::rooms:
    return "parley_rooms";
  case registry::demands:
    break;
  }
  return "parley_demands";
}

const char* column_of(registry kind) {
  switch (kind) {
  case registry::agents:
    return "spec";
  case registry::rooms:
    return "members";
  case registry::demands:
    break;
  }
  return "demand";
}

nlohmann::json parse(const registry_row& row, const char* column) {
  auto j = nlohmann::json::parse(row.json, nullptr, false);
  if (j.is_discarded())
    throw messages::json_error(column, "of \"" + row.id + "\" is not JSON");
  return j;
}

} // namespace

registry_row agent_row(const messages::agent_spec& x) {
  return {x.id, nlohmann::json(x).dump()};
}

registry_row room_row(const messages::room_request& x) {
  return {x.id, nlohmann::json(x.members).dump()};
}

registry_row demand_row(const messages::demand_view& x) {
  auto kept = x;
  kept.channels.clear();
  kept.proposal = caf::none;
  return {x.demand_id, nlohmann::json(kept).dump()};
}

messages::agent_spec agent_of(const registry_row& row) {
  messages::agent_spec x;
  messages::read(parse(row, "spec"), "spec", x);
  x.id = row.id;
  return x;
}

messages::room_request room_of(const registry_row& row) {
  messages::room_request x;
  x.id = row.id;
  messages::read(parse(row, "members"), "members", x.members);
  return x;
}

messages::demand_view demand_of(const registry_row& row) {
  messages::demand_view x;
  messages::read(parse(row, "demand"), "demand", x);
  x.demand_id = row.id;
  return x;
}

std::string upsert_sql(registry kind, dialect d) {
  std::string column = column_of(kind);
  auto pg = d == dialect::postgresql;
  return std::string{"INSERT INTO "} + table_of(kind) + " (id, " + column + ") VALUES " +
         (pg ? "($1, $2::jsonb)" : "(?1, ?2)") + " ON CONFLICT (id) DO UPDATE SET " +
         column + " = excluded." + column;
}

std::string delete_sql(registry kind, dialect d) {
  return std::string{"DELETE FROM "} + table_of(kind) + " WHERE id = " +
         (d == dialect::postgresql ? "$1" : "?1");
}

std::string load_sql(registry kind, dialect d) {
  std::string column = column_of(kind);
  auto pg = d == dialect::postgresql;
  return "SELECT id, " + column + (pg ? "::text" : "") + " FROM " + table_of(kind) +
         " WHERE id > " + (pg ? "$1" : "?1") + " ORDER BY id LIMIT " +
         (pg ? "$2" : "?2");
}

std::string get_sql(registry kind, dialect d) {
  std::string column = column_of(kind);
  auto pg = d == dialect::postgresql;
  return "SELECT id, " + column + (pg ? "::text" : "") + " FROM " + table_of(kind) +
         " WHERE id = " + (pg ? "$1" : "?1");
}

} // namespace parley::actors::store
