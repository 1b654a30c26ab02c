#pragma once

#include <chrono>
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
  /// Load CAF's middleman, to serve or reach other nodes, with heartbeats,
  /// and CAF's OpenSSL module when `cluster` names TLS files.
  bool network = false;
  config::cluster_settings cluster;
  /// Idle workers sleep at once instead of CAF's moderate polling (500
  /// sleeps of 50 µs each): for a process whose workers wait on other
  /// threads or processes (a node, serve), whose CPU the polling takes.
  /// Always so with `network`.
  bool sleep_when_idle = false;
};

/// Prepares `cfg`: registers every Parley wire type and sets the scheduler
/// (and, for `network`, loads the middleman with heartbeats configured and,
/// with TLS files, CAF's OpenSSL module with them, after checking them:
/// throws config::config_error when one is missing or bad).
void configure(caf::actor_system_config& cfg, const system_options& options);

/// How often a node's connection guard (cluster/connection_guard.hpp) must
/// check its deadlines: often enough that a connection is closed at most a
/// quarter of its timeout late (25 ms..1 s).
std::chrono::milliseconds guard_sweep_interval(const config::cluster_settings& x);

/// Where `parley node` listens.
struct node_options {
  std::string host = "127.0.0.1";
  /// 0: any free port (printed on start).
  std::uint16_t port = 0;
  /// Listen on a non-loopback address without TLS (with a warning).
  bool insecure = false;
};

/// Runs `parley node`: publishes a room host (see room_host.hpp), prints
/// `parley node listening on HOST:PORT`, and serves until SIGTERM or SIGINT,
/// then stops its rooms (their negotiations report E021 to their callers)
/// and exits. With TLS files in `settings.cluster`, every peer must show a
/// certificate signed by their CA; without, it refuses a non-loopback
/// `host` unless `insecure`. Every connection goes through a
/// connection_guard (cap, handshake and idle timeouts), whose counts it
/// prints every `cluster.status_interval_ms` and on exit as `parley node
/// status: connections ...`. Returns the process exit code.
int run_node(const node_options& options, const config::settings& settings,
             std::ostream& out, std::ostream& err);

} // namespace parley::runtime
