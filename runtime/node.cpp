#include "runtime/node.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <ostream>
#include <thread>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"
#include "caf/io/middleman.hpp"
#include "caf/openssl/manager.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include "cluster/connection_guard.hpp"
#include "cluster/node_transport.hpp"
#include "cluster/room_host.hpp"
#include "cluster/tls_check.hpp"
#include "messages/error_code.hpp"
#include "messages/type_ids.hpp"
#include "runtime/stop_signals.hpp"

namespace parley::runtime {

void configure(caf::actor_system_config& cfg, const system_options& options) {
  messages::register_types(cfg);
  if (options.simulated_time) {
    cfg.set("scheduler.policy", caf::atom("testing"));
  } else {
    // CAF's default is at least four workers: on a two-core machine the two
    // extra ones only take turns with the others.
    auto threads = options.scheduler_threads > 0
                       ? static_cast<std::size_t>(options.scheduler_threads)
                       : std::max(1u, std::thread::hardware_concurrency());
    cfg.set("scheduler.max-threads", threads);
  }
  // A process that waits on its peers (or serve, on its I/O and store
  // threads) spends its idle moments in CAF's moderate polling (500 sleeps of
  // 50 µs per idle worker), CPU that the others need. Idle workers go straight
  // to their condition variable instead: W1 --remote does 20-30 % more
  // negotiations per second with 15-25 % less CPU on each side
  // (docs/benchmarks/nodes.md, "2026-11-26, later"), serve's workers use half the CPU
  // (docs/benchmarks/api.md, "2026-11-27: API"). Not for local runs: there it changes
  // no throughput, and W2's lateness tail looked worse.
  if (options.network || options.sleep_when_idle)
    cfg.set("work-stealing.moderate-poll-attempts", std::size_t{0});
  if (options.network) {
    cfg.load<caf::io::middleman>();
    // Without heartbeats a frozen peer is never noticed
    // (docs/caf-notes.md, "Across nodes").
    cfg.set("middleman.heartbeat-interval",
            caf::timespan{
                std::chrono::milliseconds(options.cluster.heartbeat_interval_ms)});
    cfg.set("middleman.connection-timeout",
            caf::timespan{
                std::chrono::milliseconds(options.cluster.connection_timeout_ms)});
    if (options.cluster.tls()) {
      // CAF's module reads the files on each connection and ends the process
      // on a bad one: check them here, where an error can be reported.
      cluster::check_tls_files(options.cluster);
      // With all three set, CAF requires and verifies peer certificates
      // (SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT); with none it
      // would fall back to anonymous TLS, which Parley never loads.
      cfg.load<caf::openssl::manager>();
      cfg.openssl_cafile = options.cluster.tls_ca;
      cfg.openssl_certificate = options.cluster.tls_certificate;
      cfg.openssl_key = options.cluster.tls_key;
    }
  }
}

namespace {

timespec to_timespec(std::chrono::milliseconds x) {
  timespec result{};
  result.tv_sec = static_cast<time_t>(x.count() / 1000);
  result.tv_nsec = static_cast<long>(x.count() % 1000) * 1000000L;
  return result;
}

} // namespace

std::chrono::milliseconds guard_sweep_interval(const config::cluster_settings& x) {
  auto shortest = std::min(x.handshake_timeout_ms, x.idle_timeout_ms);
  return std::chrono::milliseconds(std::clamp(shortest / 4, 25, 1000));
}

int run_node(const node_options& options, const config::settings& settings,
             std::ostream& out, std::ostream& err) {
  const auto& cluster = settings.cluster;
  if (!cluster.tls() && !cluster::is_loopback(options.host)) {
    if (!options.insecure) {
      err << "parley node: " << messages::to_code(messages::error_code::invalid_config)
          << " refusing to listen on " << options.host
          << " without TLS: anyone who reaches it could place rooms and negotiations "
             "here. Give --tls-ca, --tls-cert and --tls-key (docs/cluster.md), or "
             "--insecure to accept anyone.\n";
      return 2;
    }
    err << "parley node: WARNING: --insecure: listening on " << options.host
        << " without TLS; anyone who reaches this port can place rooms and "
           "negotiations here\n";
  }
  // The signals reach only the sigtimedwait below.
  auto stop_signals = block_stop_signals();
  caf::actor_system_config cfg;
  configure(cfg,
            system_options{false, settings.runtime.scheduler_threads, true, cluster});
  caf::actor_system sys{cfg};
  auto guard = std::make_shared<cluster::connection_guard>(cluster::connection_guard::limits{
      cluster.max_connections, std::chrono::milliseconds(cluster.handshake_timeout_ms),
      std::chrono::milliseconds(cluster.idle_timeout_ms)});
  auto transport = spawn_node_transport(sys, guard);
  auto host = cluster::spawn_room_host(sys);
  auto port = cluster::publish_through(
      sys, transport, caf::actor_cast<caf::strong_actor_ptr>(host),
      sys.message_types(host), options.host, options.port);
  if (!port) {
    err << "parley node: cannot listen on " << options.host << ":" << options.port
        << ": " << sys.render(port.error()) << "\n";
    caf::anon_send(host, messages::shutdown_atom::value);
    caf::anon_send_exit(transport, caf::exit_reason::user_shutdown);
    return 1;
  }
  out << "parley node listening on " << options.host << ":" << *port << " (node "
      << to_string(sys.node()) << ", " << (cluster.tls() ? "mutual TLS" : "no TLS")
      << ", at most " << cluster.max_connections << " connections)" << std::endl;
  auto status = [&] {
    out << "parley node status: " << to_string(guard->counts()) << std::endl;
  };
  using clock = cluster::connection_guard::clock;
  const auto status_every = std::chrono::milliseconds(cluster.status_interval_ms);
  auto next_status = clock::now() + status_every;
  const auto wait = to_timespec(guard_sweep_interval(cluster));
  int signal = 0;
  while (signal != SIGTERM && signal != SIGINT) {
    signal = sigtimedwait(&stop_signals, nullptr, &wait);
    auto now = clock::now();
    guard->sweep(now);
    if (status_every.count() > 0 && now >= next_status) {
      status();
      next_status = now + status_every;
    }
  }
  out << "parley node: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
      << ": stopping its rooms and exiting" << std::endl;
  status();
  sys.middleman().unpublish(host, *port);
  caf::anon_send_exit(transport, caf::exit_reason::user_shutdown);
  caf::anon_send(host, messages::shutdown_atom::value);
  return 0;
}

} // namespace parley::runtime
