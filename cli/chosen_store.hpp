#pragma once

#include <ostream>
#include <string>

#include "actors/store/store_url.hpp"
#include "config/settings.hpp"

namespace parley::cli {

/// The store a command that reads or keeps the database opens: `flag`
/// (--store) if given, else PARLEY_STORE, else `settings`' store.url, parsed
/// into `out` with `settings`' synchronous mode. False after telling `err`
/// why the URL is not one (a usage error).
bool chosen_store(const std::string& flag, const config::settings& settings,
                  actors::store::store_url& out, std::ostream& err);

} // namespace parley::cli
