#pragma once

#include <map>
#include <string>
#include <vector>

#include "actors/store/backend.hpp"

namespace parley::actors::store {

/// The embedded migrations (generated from migrations/{sqlite,postgresql}/).
const std::vector<migration>& sqlite_migrations();
const std::vector<migration>& postgresql_migrations();

/// One column of the `negotiations` table
/// (docs/protocols/record-and-schema.md, "The negotiations table") as `verify` expects
/// it.
struct expected_column {
  const char* name;
  /// PostgreSQL's information_schema data_type, e.g. "timestamp with time zone".
  const char* postgresql_type;
  /// The declared type in the SQLite migration.
  const char* sqlite_type;
  bool not_null;
  bool has_default;
};

/// The table's columns, in their order.
const std::vector<expected_column>& seed_columns();

/// The named CHECK constraints of the table (state, convergence_score,
/// max_rounds) every back end must have.
const std::vector<std::string>& seed_checks();

/// The table's six indexes; the expiry one must be partial.
const std::vector<std::string>& seed_indexes();

inline constexpr const char* expires_index = "idx_negotiations_expires";
inline constexpr const char* updated_at_trigger = "negotiations_updated_at";
inline constexpr const char* expire_function = "expire_stale_negotiations";

/// The tables besides `negotiations` and migration 002's the migrations make
/// (migration 003's channels and migration 008's cluster_members among them).
const std::vector<std::string>& other_tables();

/// A column a later migration added to an earlier table.
struct added_column {
  const char* table;
  const char* column;
};

/// The columns migrations added to earlier tables, in the order `verify`
/// names the missing ones ("column channel_events.body"): migration 004's
/// compact channel events, 007's deal scores, 009's owners (docs/cluster.md,
/// "Ownership and take-over"). A column of a missing table is not named.
const std::vector<added_column>& added_columns();

/// A table of migration 002 (the agents and rooms `parley serve` recovers
/// after a restart) and its columns, as `verify` expects them.
struct expected_table {
  const char* name;
  std::vector<expected_column> columns;
  /// Its named CHECK constraint (on the JSON column's shape).
  const char* check;
};

/// parley_agents, parley_rooms and parley_demands.
const std::vector<expected_table>& registry_tables();

/// A column as a back end's catalogue describes it.
struct found_column {
  std::string type;
  bool not_null = false;
  bool has_default = false;
};

/// Adds to `missing` what a table has otherwise than `table` expects:
/// `found` is its columns by name (none: the table is missing), `has_check`
/// whether it has table.check; `postgresql` picks the type to compare.
void compare_table(const expected_table& table,
                   const std::map<std::string, found_column>& found, bool has_check,
                   bool postgresql, std::vector<std::string>& missing);

} // namespace parley::actors::store
