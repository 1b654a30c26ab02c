#pragma once

#include <memory>

#include "caf/fwd.hpp"

#include "actors/metrics/node_metrics.hpp"
#include "service/message.hpp"

namespace parley::service {

/// The content type of the Prometheus text format (version 0.0.4).
constexpr const char* prometheus_text_type = "text/plain; version=0.0.4; charset=utf-8";

/// The instruments of a node whose HTTP requests are counted by the route
/// patterns of route_pattern.hpp: what a world is given to serve /metrics.
std::shared_ptr<actors::metrics::node_metrics> make_node_metrics();

/// Wraps `inner` (the routes, routes.hpp) with the metrics of the HTTP API:
/// answers `GET /metrics` itself, in Prometheus text format
/// (service/metrics_collector.hpp, docs/metrics.md), even while the store
/// is recovering; passes every other request on, and counts its answer by
/// route pattern (route_pattern.hpp) and status, and its duration, in
/// `metrics->http` (atomics, no lock). Answers the server writes itself
/// (401, 413, a malformed request) are not counted. `sys` must outlive the
/// handler.
handler_function with_metrics(handler_function inner,
                              std::shared_ptr<actors::metrics::node_metrics> metrics,
                              caf::actor_system& sys);

} // namespace parley::service
