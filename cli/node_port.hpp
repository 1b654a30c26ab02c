#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "caf/fwd.hpp"
#include "caf/io/middleman_actor.hpp"

#include "cluster/connection_guard.hpp"
#include "cluster/move_relay.hpp"
#include "config/settings.hpp"
#include "messages/handles/event_exchange.hpp"
#include "messages/handles/gateway.hpp"
#include "messages/handles/move_relay.hpp"

namespace parley::cli {

/// Why `parley serve` may not open its node port on `host` (empty: it may):
/// without TLS files in `settings`, anyone who reaches a non-loopback
/// address could forward moves into this node (docs/cluster.md).
std::string exposed_node_port(const config::cluster_settings& settings,
                              const std::string& host);

/// The CAF node port of a `parley serve --cluster` node (docs/cluster.md,
/// "Any node answers"): the node's move relay (cluster/move_relay.hpp),
/// published through the guarded transport `parley node` uses
/// (cluster/node_transport.hpp: a connection cap, handshake and idle
/// timeouts, mutual TLS when the actor system has CAF's OpenSSL module).
/// The other nodes forward to it the moves of the negotiations this node
/// runs.
class serve_node_port {
public:
  /// Publishes a relay for `gateway` and the channel members `members`
  /// at `host`:`port` (0: any free port), which hands the events other nodes
  /// send to `events`. Throws std::runtime_error naming the address when it
  /// cannot listen.
  serve_node_port(caf::actor_system& sys, const config::cluster_settings& settings,
                  const actors::gateway_actor& gateway, cluster::member_finder members,
                  const std::string& host, std::uint16_t port,
                  actors::event_exchange_actor events = {});

  /// Stops the relay and the transport: no peer reaches this node any more
  /// (the actor system waits for the relay at its end otherwise).
  ~serve_node_port();

  serve_node_port(const serve_node_port&) = delete;
  serve_node_port& operator=(const serve_node_port&) = delete;

  /// `host:port` as the other nodes reach it (cluster_members.node_address).
  const std::string& address() const noexcept { return address_; }

  /// Closes the connections past their deadlines; due every `sweep_every`.
  void sweep();
  std::chrono::milliseconds sweep_every() const noexcept { return sweep_every_; }

private:
  std::shared_ptr<cluster::connection_guard> guard_;
  caf::io::middleman_actor transport_;
  actors::move_relay_actor relay_;
  std::string address_;
  std::chrono::milliseconds sweep_every_;
};

} // namespace parley::cli
