#pragma once

#include <string>

namespace parley::test {

/// A throwaway PostgreSQL cluster for tests: `initdb` and `pg_ctl` (the
/// server binaries of /usr/lib/postgresql/15/bin, or $PARLEY_PG_BIN) in a
/// fresh temporary directory, listening on 127.0.0.1 on a free port, with
/// trust authentication for the user "parley". Stopped (`pg_ctl stop -m
/// immediate`) and removed when destroyed. initdb refuses to run as root: as
/// root the cluster runs as the user "nobody". Every step is bounded.
class postgres_cluster {
public:
  /// The directory of the server binaries; empty when they are not
  /// installed (a test then skips, saying so).
  static std::string bin_dir();

  /// Makes and starts the cluster, listening on 127.0.0.1 and, when given,
  /// on `also_on` too (an address of a network namespace's link that a test
  /// made), whose /24 it then trusts as well. Throws std::runtime_error, with
  /// the server's log, when it cannot.
  explicit postgres_cluster(std::string also_on = {});
  ~postgres_cluster();

  postgres_cluster(const postgres_cluster&) = delete;
  postgres_cluster& operator=(const postgres_cluster&) = delete;

  int port() const noexcept { return port_; }

  /// A libpq URI for database `name`.
  std::string uri(const std::string& name = "postgres") const;

  /// Creates an empty database called `name` (dropping one of that name
  /// first) and returns its URI.
  std::string fresh_database(const std::string& name);

  /// Stops the server at once (as a crash would) or starts it again.
  void stop();
  void start();

private:
  std::string as_owner(const std::string& command) const;

  std::string dir_;
  std::string also_on_;
  int port_ = 0;
  bool running_ = false;
};

/// The message a test prints when it skips because the server binaries are
/// absent.
inline constexpr const char* postgres_missing =
    "SKIPPED: PostgreSQL server binaries not found (install the postgresql "
    "package, see scripts/install-deps.sh, or set PARLEY_PG_BIN)";

} // namespace parley::test
