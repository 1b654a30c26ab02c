#pragma once

// The two back ends of the store, each as a fresh, empty database, for tests
// that run the same checks against SQLite and PostgreSQL.

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "support/postgres_cluster.hpp"
#include "support/process.hpp"

namespace parley::test {

/// The test UUID numbered `i` (0190a4c2-0000-7000-8000-00000000000i).
inline std::string uuid(int i) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "0190a4c2-0000-7000-8000-%012d", i);
  return buf;
}

/// A fresh database of one back end.
struct store_target {
  /// "sqlite" or "postgresql".
  std::string kind;
  /// The store URL the code under test opens.
  std::string url;
  /// Runs `sql` with the back end's own shell (sqlite3 / psql), stopping at
  /// the first error; returns what it printed and how it exited.
  std::function<process_result(const std::string& sql)> exec;
};

/// The PostgreSQL cluster the tests of this binary share, started on first
/// use; null (after printing why, once) when the server binaries are absent.
inline postgres_cluster* shared_postgres() {
  static std::unique_ptr<postgres_cluster> cluster;
  static bool tried = false;
  if (!tried) {
    tried = true;
    if (postgres_cluster::bin_dir().empty())
      WARN(postgres_missing);
    else
      cluster = std::make_unique<postgres_cluster>();
  }
  return cluster.get();
}

/// A fresh SQLite file in the temporary directory.
inline store_target sqlite_target(const std::string& name) {
  auto path = write_temp_file(name + ".db", "");
  for (auto suffix : {"", "-wal", "-shm"})
    std::remove((path + suffix).c_str());
  return {"sqlite", path, [path](const std::string& sql) {
            auto file = write_temp_file("store.sql", sql);
            return run_command("sqlite3 -bail " + path + " < " + file, 30);
          }};
}

/// A fresh PostgreSQL database in the shared cluster.
inline store_target postgresql_target(postgres_cluster& pg, const std::string& name) {
  auto url = pg.fresh_database(name);
  return {"postgresql", url, [url](const std::string& sql) {
            auto file = write_temp_file("store.sql", sql);
            return run_command("psql -X -q -v ON_ERROR_STOP=1 \"" + url + "\" -f " + file,
                               30);
          }};
}

/// Calls `f` with a fresh SQLite database, then with a fresh PostgreSQL one
/// (skipped, visibly, without the server binaries).
template <class F> void for_each_store(const std::string& name, F f) {
  SECTION("sqlite") {
    f(sqlite_target(name));
  }
  SECTION("postgresql") {
    if (auto* pg = shared_postgres())
      f(postgresql_target(*pg, name));
  }
}

} // namespace parley::test
