#pragma once

#include <memory>
#include <string>

#include "actors/store/backend.hpp"

namespace parley::actors::store {

/// Opens (or creates) the SQLite file at `path` in WAL mode, with foreign
/// keys on, synchronous NORMAL (or FULL). Throws store_error when it cannot.
std::unique_ptr<backend> open_sqlite(const std::string& path, bool synchronous_full);

} // namespace parley::actors::store
