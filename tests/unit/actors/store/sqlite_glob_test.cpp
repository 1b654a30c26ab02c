#include "actors/store/sqlite_glob.hpp"

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/store/schema.hpp"

namespace unit_actors_store_sqlite_glob_test {

namespace store = parley::actors::store;

namespace {

using connection = std::unique_ptr<sqlite3, decltype(&sqlite3_close)>;

/// An in-memory database, with the store's glob() when `ours`.
connection open_memory(bool ours) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  connection c{db, &sqlite3_close};
  if (ours)
    REQUIRE(store::install_glob(db) == SQLITE_OK);
  return c;
}

/// `text GLOB pattern` on `db`: "1", "0", "NULL", or "error: ..." (SQLite's).
std::string glob_on(sqlite3* db, const char* pattern, const char* text) {
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT ?2 GLOB ?1", -1, &s, nullptr) == SQLITE_OK);
  if (pattern != nullptr)
    sqlite3_bind_text(s, 1, pattern, -1, SQLITE_TRANSIENT);
  if (text != nullptr)
    sqlite3_bind_text(s, 2, text, -1, SQLITE_TRANSIENT);
  std::string out;
  if (sqlite3_step(s) == SQLITE_ROW)
    out = sqlite3_column_type(s, 0) == SQLITE_NULL
              ? "NULL"
              : std::to_string(sqlite3_column_int(s, 0));
  else
    out = std::string{"error: "} + sqlite3_errmsg(db);
  sqlite3_finalize(s);
  return out;
}

} // namespace

TEST_CASE("the store's glob() answers as SQLite's own does", "[unit]") {
  auto builtin = open_memory(false);
  auto ours = open_memory(true);
  const std::string uuid = "0190f3a2-7c4e-7b1d-9a3f-5e6d7c8b9a01";
  const std::string long_pattern(60000, '?');
  const std::vector<const char*> patterns = {
      store::uuid_glob,     "*",    "0190*", "[0-9a-f]*-*", "?", "*[^0-9a-f-]*", "",
      long_pattern.c_str(), nullptr};
  const std::vector<std::string> upper = {"0190F3A2-7C4E-7B1D-9A3F-5E6D7C8B9A01"};
  const std::vector<std::string> texts = {
      uuid,
      upper[0],
      uuid.substr(1),                                // 35 characters
      uuid + "0",                                    // 37
      "0190f3a27-c4e-7b1d-9a3f-5e6d7c8b9a01",        // a hyphen out of place
      "0190f3a2-7c4e-7b1d-9a3f-5e6d7c8b9a0g",        // not a hex digit
      "0190f3a2-7c4e-7b1d-9a3f-5e6d7c8b9a0\xc3\xa9", // é, two bytes
      "0190f3a2-7c4e-7b1d-9a3f-5e6d7c8b9\xc3\xa9",   // 36 bytes, 35 characters
      "------------------------------------",
      "",
      "x"};
  for (const auto* p : patterns) {
    for (const auto& t : texts) {
      INFO("pattern " << (p == nullptr ? "NULL" : std::string{p}.substr(0, 40))
                      << ", text " << t);
      CHECK(glob_on(ours.get(), p, t.c_str()) == glob_on(builtin.get(), p, t.c_str()));
    }
    CHECK(glob_on(ours.get(), p, nullptr) == glob_on(builtin.get(), p, nullptr));
  }
  CHECK(glob_on(ours.get(), store::uuid_glob, uuid.c_str()) == "1");
  CHECK(glob_on(ours.get(), store::uuid_glob, upper[0].c_str()) == "0");
  CHECK(glob_on(ours.get(), long_pattern.c_str(), "x").rfind("error: ", 0) == 0);
}

TEST_CASE("migration 001's UUID CHECKs are the pattern the store's glob() knows",
          "[unit]") {
  const std::string up = store::sqlite_migrations().at(0).up;
  auto quoted = std::string{"GLOB\n    '"} + store::uuid_glob + "'";
  std::size_t count = 0;
  for (auto at = up.find(quoted); at != std::string::npos; at = up.find(quoted, at + 1))
    ++count;
  CHECK(count == 2); // negotiations.id and intent_id
}

} // namespace unit_actors_store_sqlite_glob_test
