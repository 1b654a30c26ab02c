#pragma once

#include <memory>
#include <string>

#include "actors/store/backend.hpp"

namespace parley::actors::store {

/// Connects to the PostgreSQL database `uri` names (libpq's URI syntax).
/// Throws store_error when it cannot.
std::unique_ptr<backend> open_postgresql(const std::string& uri);

} // namespace parley::actors::store
