#pragma once

#include <memory>

#include "actors/metrics/node_metrics.hpp"
#include "service/message.hpp"

namespace parley::service {

class metrics_collector;

/// The content type of the Prometheus text format (version 0.0.4).
constexpr const char* prometheus_text_type = "text/plain; version=0.0.4; charset=utf-8";

/// The instruments of a node whose HTTP requests are counted by the route
/// labels of route_table.hpp: what a world is given to serve /metrics.
std::shared_ptr<actors::metrics::node_metrics> make_node_metrics();

/// The answer of `GET /metrics` (node_routes.hpp): `collector`'s families in
/// Prometheus text format (service/metrics_collector.hpp, docs/metrics.md).
response metrics_response(const metrics_collector& collector);

/// Wraps `inner` (the routes, routes.hpp) with the metrics of the HTTP API:
/// counts each answer by its route's label (route_table.hpp) and status,
/// and its duration, in `metrics->http` (atomics, no lock). Answers the
/// server writes itself (401, 413, a malformed request) are not counted.
handler_function with_metrics(handler_function inner,
                              std::shared_ptr<actors::metrics::node_metrics> metrics);

} // namespace parley::service
