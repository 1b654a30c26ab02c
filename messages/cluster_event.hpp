#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"

#include "messages/fields.hpp"

namespace parley::messages {

/// One event of a `parley serve --cluster` node as it goes to the other
/// nodes' event streams (docs/cluster.md, "The cluster's events"): what the
/// streams' filters look at, and the payload serialized once, by its origin,
/// as its event streams show it. Never an event of the bus: a node that
/// receives one only shows it.
struct cluster_event {
  /// Its place in its origin's sequence (1, 2, ...): a receiver shows each
  /// number of an origin once.
  std::uint64_t sequence = 0;
  /// A messages::topic, checked on arrival.
  std::uint8_t topic = 0;
  std::string negotiation_id;
  std::string channel_id;
  std::string demand_id;
  std::int64_t at_ms = 0;
  /// The stream's `payload`: one line of JSON.
  std::string payload;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cluster_event& x) {
  return f(caf::meta::type_name("cluster_event"), field("sequence", x.sequence),
           field("topic", x.topic), field("negotiation_id", x.negotiation_id),
           field("channel_id", x.channel_id), field("demand_id", x.demand_id),
           field("at_ms", x.at_ms), field("payload", x.payload));
}

/// Events of one origin, in its order, as one node sends them to another.
struct cluster_event_batch {
  /// The origin's node id (cluster_members.node_id), as the streams show it.
  std::string node_id;
  /// Drawn at random by the origin's process at its start: tells the
  /// sequences of two runs (or incarnations) of one node id apart.
  std::uint64_t stream = 0;
  std::vector<cluster_event> events;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cluster_event_batch& x) {
  return f(caf::meta::type_name("cluster_event_batch"), field("node_id", x.node_id),
           field("stream", x.stream), field("events", x.events));
}

} // namespace parley::messages
