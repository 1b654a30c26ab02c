#include "service/metrics_route.hpp"

#include <chrono>
#include <utility>

#include <prometheus/text_serializer.h>

#include "service/errors.hpp"
#include "service/metrics_collector.hpp"
#include "service/route_pattern.hpp"

namespace parley::service {

namespace {

response render(const metrics_collector& collector) {
  prometheus::TextSerializer serializer;
  return {200, serializer.Serialize(collector.Collect()), 0, {}, prometheus_text_type};
}

} // namespace

std::shared_ptr<actors::metrics::node_metrics> make_node_metrics() {
  return std::make_shared<actors::metrics::node_metrics>(route_count());
}

handler_function with_metrics(handler_function inner,
                              std::shared_ptr<actors::metrics::node_metrics> metrics,
                              caf::actor_system& sys) {
  auto collector = std::make_shared<metrics_collector>(metrics, &sys);
  const auto metrics_route = route_of("/metrics");
  return [inner = std::move(inner), metrics = std::move(metrics),
          collector = std::move(collector),
          metrics_route](request req, respond_function respond) {
    auto route = route_of(req.target);
    auto begin = std::chrono::steady_clock::now();
    auto counted = [metrics, route, begin, respond = std::move(respond)](response r) {
      metrics->http.count(route, r.status);
      auto took = std::chrono::steady_clock::now() - begin;
      metrics->http.duration_us.observe(
          std::chrono::duration_cast<std::chrono::microseconds>(took).count());
      respond(std::move(r));
    };
    if (route != metrics_route)
      return inner(std::move(req), std::move(counted));
    if (req.method != "GET")
      return counted(not_allowed_response(req.method, "/metrics", "GET"));
    counted(render(*collector));
  };
}

} // namespace parley::service
