#pragma once

#include <ostream>
#include <string>

#include "config/settings.hpp"

namespace CLI {
class App;
} // namespace CLI

namespace parley::cli {

/// `parley db migrate | verify | rollback | expire | archive [--store URL]`
/// and `parley stats [--store URL] [--json]`: the store's schema and queries
/// (docs/protocols/record-and-schema.md) from the command line, straight against
/// the database (no actor system).
class store_commands {
public:
  /// Adds the `db` and `stats` subcommands to `app`.
  explicit store_commands(CLI::App& app);

  /// Whether the parsed command line chose one of them.
  bool chosen() const;

  /// Runs the chosen command; returns the exit code (0 ok, 1 failed or, for
  /// `verify`, something missing).
  int run(const config::settings& settings, std::ostream& out, std::ostream& err) const;

private:
  CLI::App* db_ = nullptr;
  CLI::App* stats_ = nullptr;
  std::string store_flag_;
  std::int32_t archive_days_ = 90;
  bool json_ = false;
};

} // namespace parley::cli
