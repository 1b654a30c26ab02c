#pragma once

#include <ostream>
#include <string>

#include "config/settings.hpp"

namespace CLI {
class App;
} // namespace CLI

namespace parley::cli {

/// `parley cluster status [--store URL] [--cluster NAME] [--json]`: the
/// members of the clusters over a store (docs/cluster.md, "Membership"),
/// read straight from the database (no actor system), with their status and
/// lease age as the database's clock has them.
class cluster_commands {
public:
  /// Adds the `cluster` subcommand to `app`.
  explicit cluster_commands(CLI::App& app);

  /// Whether the parsed command line chose it.
  bool chosen() const;

  /// Runs it; returns the exit code (cli/exit_codes.hpp: 0 listed, 1 the
  /// store failed, 2 a bad store URL).
  int run(const config::settings& settings, std::ostream& out, std::ostream& err) const;

private:
  CLI::App* cluster_ = nullptr;
  std::string store_flag_;
  std::string cluster_name_;
  bool json_ = false;
};

} // namespace parley::cli
