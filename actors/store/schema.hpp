#pragma once

#include <string>
#include <vector>

#include "actors/store/backend.hpp"

namespace parley::actors::store {

/// The embedded migrations (generated from migrations/{sqlite,postgresql}/).
const std::vector<migration>& sqlite_migrations();
const std::vector<migration>& postgresql_migrations();

/// One column of seed 003's `negotiations` table as `verify` expects it.
struct expected_column {
  const char* name;
  /// PostgreSQL's information_schema data_type, e.g. "timestamp with time zone".
  const char* postgresql_type;
  /// The declared type in the SQLite migration.
  const char* sqlite_type;
  bool not_null;
  bool has_default;
};

/// Seed 003's columns, in its order.
const std::vector<expected_column>& seed_columns();

/// The named CHECK constraints of seed 003 (state, convergence_score,
/// max_rounds) every back end must have.
const std::vector<std::string>& seed_checks();

/// Seed 003's six indexes; the expiry one must be partial.
const std::vector<std::string>& seed_indexes();

inline constexpr const char* expires_index = "idx_negotiations_expires";
inline constexpr const char* updated_at_trigger = "negotiations_updated_at";
inline constexpr const char* expire_function = "expire_stale_negotiations";

/// The tables besides `negotiations` the migrations make.
const std::vector<std::string>& other_tables();

} // namespace parley::actors::store
