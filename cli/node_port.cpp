#include "cli/node_port.hpp"

#include <stdexcept>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/send.hpp"

#include "cluster/move_relay.hpp"
#include "cluster/node_transport.hpp"
#include "cluster/tls_check.hpp"
#include "messages/error_code.hpp"
#include "runtime/node.hpp"

namespace parley::cli {

std::string exposed_node_port(const config::cluster_settings& settings,
                              const std::string& host) {
  if (settings.tls() || cluster::is_loopback(host))
    return {};
  return messages::to_code(messages::error_code::invalid_config) +
         " refusing to open the node port on " + host +
         " without TLS: anyone who reaches it could forward moves into this node. "
         "Give --tls-ca, --tls-cert and --tls-key (docs/cluster.md)";
}

serve_node_port::serve_node_port(caf::actor_system& sys,
                                 const config::cluster_settings& settings,
                                 const actors::gateway_actor& gateway,
                                 cluster::member_finder members,
                                 const std::string& host, std::uint16_t port,
                                 actors::event_exchange_actor events)
    : guard_(
          std::make_shared<cluster::connection_guard>(cluster::connection_guard::limits{
              settings.max_connections,
              std::chrono::milliseconds(settings.handshake_timeout_ms),
              std::chrono::milliseconds(settings.idle_timeout_ms)})),
      transport_(cluster::spawn_node_transport(sys, guard_)),
      relay_(cluster::spawn_move_relay(sys, gateway, std::move(members),
                                       std::move(events))),
      sweep_every_(runtime::guard_sweep_interval(settings)) {
  auto actual = cluster::publish_through(sys, transport_,
                                         caf::actor_cast<caf::strong_actor_ptr>(relay_),
                                         sys.message_types(relay_), host, port);
  if (!actual) {
    caf::anon_send_exit(relay_, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(transport_, caf::exit_reason::user_shutdown);
    throw std::runtime_error("cannot open the node port " + host + ":" +
                             std::to_string(port) + ": " + sys.render(actual.error()));
  }
  address_ = host + ":" + std::to_string(*actual);
}

serve_node_port::~serve_node_port() {
  caf::anon_send_exit(relay_, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(transport_, caf::exit_reason::user_shutdown);
}

void serve_node_port::sweep() {
  guard_->sweep(cluster::connection_guard::clock::now());
}

} // namespace parley::cli
