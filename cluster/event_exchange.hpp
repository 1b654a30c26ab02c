#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "actors/metrics/node_metrics.hpp"
#include "messages/handles/event_exchange.hpp"

namespace parley::cluster {

/// Where a node's exchange shows another node's event: its node id and
/// the event (service/sse_hub.hpp's `publish_remote`). Never the bus: the
/// gateway, the store and every other subscriber act on their own node's
/// events only.
using show_event =
    std::function<void(const std::string& node_id, const messages::cluster_event& x)>;

struct event_exchange_options {
  /// This node's id (cluster_members.node_id): the streams of the other
  /// nodes show it as the events' origin.
  std::string node_id;
  /// This process's stream id (random, drawn at start): the batches' origin.
  std::uint64_t stream = 0;
  /// The middleman that connects to the other nodes' move relays
  /// (node_transport.hpp's connecting_middleman, a stand-in in tests).
  caf::actor connector;
  /// For a connection, and for a batch's acknowledgement: a peer that does
  /// not answer in time is let go (and connected again at the next
  /// `peers` while it is still a live member).
  std::chrono::milliseconds timeout{2000};
  /// Events kept per peer (event_rules.hpp's event_outbox), and per batch.
  std::size_t queue_limit = 4096;
  std::size_t batch_limit = 256;
  /// Shows the other nodes' events.
  show_event show;
  std::shared_ptr<actors::metrics::cluster_metrics> metrics;
};

/// Spawns the event exchange of a `parley serve --cluster` node (docs/cluster.md,
/// "The cluster's events"): it sends each event of this node's bus, as the
/// streams show it, to the move relay of every other live member (connected
/// by node address, watched, in batches with one unacknowledged batch at a
/// time and at most `queue_limit` events waiting per peer), and shows each
/// event another node sends it once, through `show`. What it shows it never
/// sends on, and it never publishes on the bus: no loop, no duplicate. A
/// member that is gone from `peers` is let go with what waited for it; a peer
/// lost or silent is let go after at most `timeout`, so nothing waits on a
/// dead node.
actors::event_exchange_actor spawn_event_exchange(caf::actor_system& sys,
                                                  event_exchange_options opts);

} // namespace parley::cluster
