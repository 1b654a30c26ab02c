#include "actors/store/sqlite_glob.hpp"

#include <cstring>
#include <string>

#include "actors/store/uuid.hpp"

namespace parley::actors::store {

const char* const uuid_glob =
    "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-"
    "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-"
    "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-"
    "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-"
    "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
    "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]";

namespace {

/// glob(pattern, text), as SQLite's own: NULL for a NULL argument, an error
/// for a pattern longer than the connection's limit, else 1 or 0.
void glob(sqlite3_context* ctx, int, sqlite3_value** argv) {
  static const auto uuid_glob_size = static_cast<int>(std::strlen(uuid_glob));
  auto* pattern = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  auto size = sqlite3_value_bytes(argv[0]);
  if (size > sqlite3_limit(sqlite3_context_db_handle(ctx),
                           SQLITE_LIMIT_LIKE_PATTERN_LENGTH, -1)) {
    sqlite3_result_error(ctx, "LIKE or GLOB pattern too complex", -1);
    return;
  }
  if (pattern == nullptr || text == nullptr)
    return;
  // A pattern of uuid_glob's size that equals it has no NUL in it; any other
  // goes to sqlite3_strglob, which reads both texts up to their first NUL,
  // as SQLite's matcher does (and so does is_lower_uuid's string_view).
  if (size == uuid_glob_size && std::memcmp(pattern, uuid_glob, uuid_glob_size) == 0)
    sqlite3_result_int(ctx, is_lower_uuid(text) ? 1 : 0);
  else
    sqlite3_result_int(ctx, sqlite3_strglob(pattern, text) == 0 ? 1 : 0);
}

} // namespace

int install_glob(sqlite3* db) {
  return sqlite3_create_function(db, "glob", 2,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                 nullptr, glob, nullptr, nullptr);
}

} // namespace parley::actors::store
