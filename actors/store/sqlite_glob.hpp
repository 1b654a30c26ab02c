#pragma once

#include <sqlite3.h>

namespace parley::actors::store {

/// The GLOB pattern of migration 001's UUID CHECKs (negotiations.id and
/// intent_id): 8-4-4-4-12 lower-case hex digits.
extern const char* const uuid_glob;

/// Replaces SQLite's glob() on `db` with one that gives the same answers,
/// faster for uuid_glob. The built-in matcher re-reads a bracket class for
/// every character it tests: the two UUID CHECKs of each new negotiation
/// were a quarter of the writer's instructions in W1 with `--store`. Any
/// other pattern goes to sqlite3_strglob(), which the SQLite documentation
/// defines as the GLOB operator's matching. Returns SQLite's result code.
int install_glob(sqlite3* db);

} // namespace parley::actors::store
