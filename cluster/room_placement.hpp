#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "actors/negotiation/pool.hpp"
#include "cluster/bridge/interface.hpp"
#include "cluster/room_host.hpp"
#include "messages/commands.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/room.hpp"
#include "messages/handles/timer.hpp"

namespace parley::cluster {

/// Where a process's rooms live: here, or spread over `parley node`s.
///
/// With nodes, rooms (and the negotiations they spawn) are built on the nodes
/// while agents, the bus and the caller's drivers stay local; the messages are
/// the same as locally. They cross through one bridge per node
/// (cluster/bridge/): batched, and addressed by slot, so that no room, agent
/// or negotiation becomes a CAF proxy on the other side. Each node is watched: if
/// it dies, freezes (heartbeat) or shuts down, every room placed on it gets an
/// E021 error event on the bus, so no negotiation placed there is silently lost.
class room_placement {
public:
  /// Connects to every "HOST:PORT" in `nodes` (none: everything is local).
  /// Throws std::runtime_error naming the node when a connection fails or a
  /// node's id equals ours (CAF 0.17 node ids can collide between containers).
  room_placement(caf::actor_system& sys, const std::vector<std::string>& nodes,
          messages::event_sink events, actors::timer_actor local_timers,
          std::shared_ptr<actors::negotiation::pool> local_negotiations);

  ~room_placement();

  room_placement(const room_placement&) = delete;
  room_placement& operator=(const room_placement&) = delete;

  /// Builds the rooms, in order: locally, or room i on node i % nodes. Safe
  /// from several threads at once (placements on nodes take turns).
  std::vector<actors::room_actor> spawn_rooms(std::vector<messages::room_spec> specs);

  bool remote() const noexcept { return !nodes_.empty(); }

  /// Waits (at most a few seconds per node) until every node has received
  /// what this process sent it so far: a round trip behind it on the same
  /// connection, which delivers in order.
  void sync();

private:
  struct node {
    std::string address;
    room_host_actor host;
    /// This process's side of the bridge to the node.
    bridge::caller_bridge_actor bridge;
  };

  /// Asks the node's room host for its side of a bridge to a new one here.
  bridge::caller_bridge_actor open_bridge(const std::string& address,
                                      const room_host_actor& host);

  caf::actor_system& sys_;
  messages::event_sink events_;
  /// This process's timer service and negotiation actors, for the rooms
  /// built here.
  actors::timer_actor timers_;
  std::shared_ptr<actors::negotiation::pool> negotiations_;
  std::vector<node> nodes_;
  /// Room i of the next batch goes to node (placed_ + i) % nodes.
  std::size_t placed_ = 0;
  std::mutex placing_;
  std::vector<caf::actor> watchers_;
};

/// Splits "HOST:PORT"; throws std::runtime_error on a malformed address.
std::pair<std::string, std::uint16_t> parse_address(const std::string& address);

} // namespace parley::cluster
