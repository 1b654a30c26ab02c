#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>

#include "caf/fwd.hpp"

#include "messages/handles/coordinator.hpp"
#include "messages/handles/gateway.hpp"
#include "messages/handles/store.hpp"
#include "service/message.hpp"

namespace parley::service {

class cluster_view;
class external_members;
class metrics_collector;
class sse_hub;

/// The routes of `parley serve` (docs/api.md, docs/openapi.json), dispatched
/// by the table of route_table.hpp: health and readiness, the metrics and the
/// dashboard's files (node_routes.hpp); `/api/v1`'s agents, rooms and
/// negotiations, each a request/response to the gateway actor, and the list
/// of negotiations, the statistics and maintenance, to the store actor
/// (api_routes.hpp); demands to the coordinator, a channel's state to the
/// store, and an external agent's channel answers and inbox to its external
/// channel member (channel_routes.hpp); the event streams, the hub's
/// (sse_routes.hpp). A path no route has is 404 (E032); a method its routes
/// do not take, 405 (E033) with their methods in `Allow`.
class routes {
public:
  struct options {
    /// How long a request may wait for the runtime (then 503, E030).
    std::chrono::milliseconds timeout{5000};
    /// Requests waiting for the runtime at once; more are answered 503
    /// (E030, Retry-After) at once.
    std::size_t max_in_flight = 4096;
    /// Long-lived actors the requests go out from (requesters.hpp).
    std::size_t requesters = 2;
  };

  /// Whom the routes ask.
  struct peers {
    actors::gateway_actor gateway;
    actors::store_actor store;
    actors::coordinator_actor coordinator;
    /// The external channel members, by agent id; must outlive the routes.
    std::shared_ptr<const external_members> members;
    /// The event streams' hub; none: the event routes answer 404.
    std::shared_ptr<sse_hub> events;
    /// What `GET /metrics` renders; none: it answers 404.
    std::shared_ptr<const metrics_collector> metrics = {};
    /// The members of the cluster this node joined (`serve --cluster`);
    /// none: `GET /api/v1/cluster` answers 404.
    std::shared_ptr<const cluster_view> cluster = {};
  };

  /// `ready` is set once the service may take requests (`/readyz`).
  routes(caf::actor_system& sys, peers to, options opts,
         std::shared_ptr<const std::atomic<bool>> ready);

  /// Handles one request (a handler_function).
  void operator()(request req, respond_function respond) const;

  /// What the routes share (routes.cpp).
  struct state;

private:
  std::shared_ptr<state> state_;
};

} // namespace parley::service
