#pragma once

#include <string>

#include "actors/store/store_url.hpp"

namespace parley::actors::store {

/// Why `url` names no file to open (empty: it does, or it is not SQLite):
/// its SQLite file does not exist. Opening it would create an empty one.
/// Throws store_error when the file cannot be looked at.
std::string absent_file(const store_url& url);

/// Why `url` names no store yet (empty: it holds one): an SQLite file that
/// does not exist, or a database (an SQLite file, a PostgreSQL database)
/// where no migration of Parley's was ever applied. Never creates the file.
/// `parley serve` refuses such a store unless told to create one: a store
/// that vanished is not silently replaced by an empty one. Throws
/// store_error when the database cannot be opened or read.
std::string missing_store(const store_url& url);

/// Why no new store may be created at `url` (empty: one may): its SQLite
/// file is not there but its log (PATH-wal) is, left over from a store that
/// vanished. SQLite would play that log into the new file.
std::string leftover_log(const store_url& url);

} // namespace parley::actors::store
