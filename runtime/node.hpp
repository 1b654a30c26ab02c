#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "caf/fwd.hpp"

#include "config/settings.hpp"

namespace parley::runtime {

/// How an actor system for Parley is set up.
struct system_options {
  /// Run on CAF's test coordinator: one thread, virtual time that jumps to the
  /// next due timer (deterministic; a 120 s timeout takes microseconds).
  bool simulated_time = false;
  /// Scheduler threads; 0 means one per core.
  std::int32_t scheduler_threads = 0;
  /// Load CAF's middleman, to serve or reach other nodes, with heartbeats.
  bool network = false;
  config::cluster_settings cluster;
};

/// Prepares `cfg`: registers every Parley wire type and sets the scheduler
/// (and, for `network`, loads the middleman with heartbeats configured).
void configure(caf::actor_system_config& cfg, const system_options& options);

/// Where `parley node` listens.
struct node_options {
  std::string host = "127.0.0.1";
  /// 0: any free port (printed on start).
  std::uint16_t port = 0;
};

/// Runs `parley node`: publishes a room host (see room_host.hpp), prints
/// `parley node listening on HOST:PORT`, and serves until SIGTERM or SIGINT,
/// then stops its rooms (their negotiations report E021 to their callers)
/// and exits. Returns the process exit code.
int run_node(const node_options& options, const config::settings& settings,
             std::ostream& out, std::ostream& err);

} // namespace parley::runtime
