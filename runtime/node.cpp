#include "runtime/node.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <ostream>
#include <thread>

#include <pthread.h>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"
#include "caf/io/middleman.hpp"
#include "caf/send.hpp"

#include "messages/type_ids.hpp"
#include "runtime/room_host.hpp"

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
  if (options.network) {
    cfg.load<caf::io::middleman>();
    // Without heartbeats a frozen peer is never noticed (CAF-0.17.md).
    cfg.set("middleman.heartbeat-interval",
            caf::timespan{
                std::chrono::milliseconds(options.cluster.heartbeat_interval_ms)});
    cfg.set("middleman.connection-timeout",
            caf::timespan{
                std::chrono::milliseconds(options.cluster.connection_timeout_ms)});
  }
}

int run_node(const node_options& options, const config::settings& settings,
             std::ostream& out, std::ostream& err) {
  // Every thread the actor system starts inherits this mask, so the signals
  // reach only the sigwait below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  caf::actor_system_config cfg;
  configure(cfg, system_options{false, settings.runtime.scheduler_threads, true,
                                settings.cluster});
  caf::actor_system sys{cfg};
  auto host = spawn_room_host(sys);
  auto port = sys.middleman().publish(host, options.port, options.host.c_str(), true);
  if (!port) {
    err << "parley node: cannot listen on " << options.host << ":" << options.port
        << ": " << sys.render(port.error()) << "\n";
    caf::anon_send(host, messages::shutdown_atom::value);
    return 1;
  }
  out << "parley node listening on " << options.host << ":" << *port << " (node "
      << to_string(sys.node()) << ")" << std::endl;
  int signal = 0;
  sigwait(&stop_signals, &signal);
  out << "parley node: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
      << ": stopping its rooms and exiting" << std::endl;
  sys.middleman().unpublish(host, *port);
  caf::anon_send(host, messages::shutdown_atom::value);
  return 0;
}

} // namespace parley::runtime
