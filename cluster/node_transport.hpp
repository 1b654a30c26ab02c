#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "caf/expected.hpp"
#include "caf/fwd.hpp"
#include "caf/io/middleman_actor.hpp"

#include "cluster/connection_guard.hpp"
#include "cluster/room_host.hpp"

namespace parley::cluster {

/// Spawns the middleman actor `parley node` publishes through: CAF's own,
/// except that every accepted connection goes through `guard` (a cap and
/// two deadlines, see connection_guard.hpp) and, when the actor system has
/// CAF's OpenSSL module loaded, runs TLS with CAF's OpenSSL session (peer
/// certificates required and checked against the configured CA). CAF's
/// OpenSSL module offers no hook for either, so this is its doorman with a
/// guard added. Send it an exit when the node stops.
caf::io::middleman_actor spawn_node_transport(caf::actor_system& sys,
                                              std::shared_ptr<connection_guard> guard);

/// Publishes `whom`, which speaks `interfaces`, through `transport` at
/// `host`:`port` (0: any free port); the port it listens on, or why it
/// cannot. Blocks the calling thread (never call it on a scheduler thread)
/// for at most 10 s.
caf::expected<std::uint16_t>
publish_through(caf::actor_system& sys, const caf::io::middleman_actor& transport,
                caf::strong_actor_ptr whom, std::set<std::string> interfaces,
                const std::string& host, std::uint16_t port);

/// The middleman actor that connects to other nodes: CAF's OpenSSL
/// module's when the actor system has it loaded (mutual TLS), else CAF's.
caf::io::middleman_actor connecting_middleman(caf::actor_system& sys);

/// Connects to the room host a `parley node` publishes at `host`:`port`,
/// through CAF's OpenSSL module when the actor system has it loaded (mutual
/// TLS) and plain CAF otherwise, and checks that it speaks a room host's
/// interface. Gives up after the system's `middleman.connection-timeout`
/// (cluster.connection_timeout_ms), where CAF's `openssl::remote_actor`
/// would wait forever for a peer that never completes the handshake.
caf::expected<room_host_actor>
connect_room_host(caf::actor_system& sys, const std::string& host, std::uint16_t port);

} // namespace parley::cluster
