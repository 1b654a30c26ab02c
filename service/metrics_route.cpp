#include "service/metrics_route.hpp"

#include <chrono>
#include <utility>

#include <prometheus/text_serializer.h>

#include "service/metrics_collector.hpp"
#include "service/route_table.hpp"

namespace parley::service {

std::shared_ptr<actors::metrics::node_metrics> make_node_metrics() {
  return std::make_shared<actors::metrics::node_metrics>(route_count());
}

response metrics_response(const metrics_collector& collector) {
  prometheus::TextSerializer serializer;
  return {200, serializer.Serialize(collector.Collect()), 0, {}, prometheus_text_type};
}

handler_function with_metrics(handler_function inner,
                              std::shared_ptr<actors::metrics::node_metrics> metrics) {
  return [inner = std::move(inner),
          metrics = std::move(metrics)](request req, respond_function respond) {
    auto route = route_of(req.target);
    auto begin = std::chrono::steady_clock::now();
    inner(std::move(req),
          [metrics, route, begin, respond = std::move(respond)](response r) {
            metrics->http.count(route, r.status);
            auto took = std::chrono::steady_clock::now() - begin;
            metrics->http.duration_us.observe(
                std::chrono::duration_cast<std::chrono::microseconds>(took).count());
            respond(std::move(r));
          });
  };
}

} // namespace parley::service
