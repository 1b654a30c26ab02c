#include "actors/store/schema.hpp"

namespace parley::actors::store {

const std::vector<expected_column>& seed_columns() {
  static const std::vector<expected_column> all = {
      {"id", "uuid", "TEXT", true, true},
      {"intent_id", "uuid", "TEXT", true, false},
      {"initiator_did", "text", "TEXT", true, false},
      {"responder_did", "text", "TEXT", true, false},
      {"state", "text", "TEXT", true, false},
      {"rounds", "jsonb", "TEXT", true, true},
      {"convergence_score", "numeric", "NUMERIC", false, false},
      {"current_proposal", "jsonb", "TEXT", false, false},
      {"final_proposal", "jsonb", "TEXT", false, false},
      {"incentive_split", "jsonb", "TEXT", false, true},
      {"max_rounds", "integer", "INTEGER", false, true},
      {"created_at", "timestamp with time zone", "TEXT", false, true},
      {"expires_at", "timestamp with time zone", "TEXT", true, false},
      {"updated_at", "timestamp with time zone", "TEXT", false, true},
  };
  return all;
}

const std::vector<std::string>& seed_checks() {
  static const std::vector<std::string> all = {"negotiations_state_check",
                                               "negotiations_convergence_score_check",
                                               "negotiations_max_rounds_check"};
  return all;
}

const std::vector<std::string>& seed_indexes() {
  static const std::vector<std::string> all = {
      "idx_negotiations_intent",  "idx_negotiations_initiator",
      "idx_negotiations_responder", "idx_negotiations_state",
      "idx_negotiations_expires", "idx_negotiations_convergence"};
  return all;
}

const std::vector<std::string>& other_tables() {
  static const std::vector<std::string> all = {
      "negotiations_archive", "negotiation_runtime", "schema_migrations", "channels",
      "channel_events",       "cluster_members"};
  return all;
}

const std::vector<added_column>& added_columns() {
  static const std::vector<added_column> all = {{"channel_events", "body"},
                                                {"negotiation_runtime", "score"},
                                                {"negotiation_runtime", "owner"},
                                                {"channels", "owner"},
                                                {"cluster_members", "taken_over_by"}};
  return all;
}

const std::vector<expected_table>& registry_tables() {
  static const std::vector<expected_table> all = {
      {"parley_agents",
       {{"id", "text", "TEXT", true, false},
        {"spec", "jsonb", "TEXT", true, false},
        {"created_at", "timestamp with time zone", "TEXT", true, true}},
       "parley_agents_spec_check"},
      {"parley_rooms",
       {{"id", "text", "TEXT", true, false},
        {"members", "jsonb", "TEXT", true, true},
        {"created_at", "timestamp with time zone", "TEXT", true, true}},
       "parley_rooms_members_check"},
      {"parley_demands",
       {{"id", "text", "TEXT", true, false},
        {"demand", "jsonb", "TEXT", true, false},
        {"created_at", "timestamp with time zone", "TEXT", true, true}},
       "parley_demands_demand_check"},
  };
  return all;
}

void compare_table(const expected_table& table,
                   const std::map<std::string, found_column>& found, bool has_check,
                   bool postgresql, std::vector<std::string>& missing) {
  if (found.empty()) {
    missing.push_back(std::string{"table "} + table.name);
    return;
  }
  if (!has_check)
    missing.push_back(std::string{"constraint "} + table.check);
  for (const auto& c : table.columns) {
    auto name = std::string{"column "} + table.name + "." + c.name;
    auto i = found.find(c.name);
    if (i == found.end()) {
      missing.push_back(name);
      continue;
    }
    std::string type = postgresql ? c.postgresql_type : c.sqlite_type;
    if (i->second.type != type)
      missing.push_back(name + " of type " + type + " (found " + i->second.type + ")");
    if (i->second.not_null != c.not_null)
      missing.push_back(name + (c.not_null ? " NOT NULL" : " nullable"));
    if (i->second.has_default != c.has_default)
      missing.push_back(name + (c.has_default ? " with a default" : " without a default"));
  }
}

} // namespace parley::actors::store
