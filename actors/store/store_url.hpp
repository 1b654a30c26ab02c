#pragma once

#include <cstdint>
#include <string>

namespace parley::actors::store {

/// Which database a store URL names.
enum class store_kind : std::uint8_t { sqlite, postgresql };

/// Where the store keeps its records: a path or "sqlite:PATH" (SQLite, WAL),
/// or "postgresql://…" / "postgres://…" (a libpq connection URI).
struct store_url {
  store_kind kind = store_kind::sqlite;
  /// The SQLite file, or the whole PostgreSQL URI.
  std::string target = "./parley.db";
  /// SQLite: synchronous=FULL (a commit survives power loss) instead of
  /// NORMAL (it survives the process dying).
  bool synchronous_full = false;
};

/// The default: ./parley.db.
inline constexpr const char* default_store_url = "./parley.db";

/// Parses `text`; returns an empty string on success, otherwise why not.
std::string parse_store_url(const std::string& text, store_url& out);

/// Which store URL counts: `flag` (--store) if given, else `environment`
/// (PARLEY_STORE) if set, else `configured` (store.url).
std::string choose_store_url(const std::string& flag, const char* environment,
                             const std::string& configured);

/// "sqlite" or "postgresql": the back end `text` names (as parse_store_url
/// reads it; sqlite when it does not parse), as the bench lines print it.
std::string store_kind_name(const std::string& text);

/// The URL again, with any password in a PostgreSQL URI replaced by "***"
/// (for logs and error messages).
std::string redacted(const store_url& x);

} // namespace parley::actors::store
