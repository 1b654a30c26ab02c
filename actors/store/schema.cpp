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
  static const std::vector<std::string> all = {"negotiations_archive",
                                               "negotiation_runtime", "schema_migrations"};
  return all;
}

} // namespace parley::actors::store
