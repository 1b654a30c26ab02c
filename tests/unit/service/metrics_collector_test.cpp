#include "service/metrics_collector.hpp"

#include <regex>
#include <sstream>
#include <string>

#include <prometheus/text_serializer.h>

#include <catch2/catch.hpp>

#include "service/route_table.hpp"

namespace unit_service_metrics_collector_test {

using namespace parley;
using namespace parley::actors::metrics;

namespace {

std::string render(const std::shared_ptr<node_metrics>& m) {
  service::metrics_collector collector{m, nullptr};
  return prometheus::TextSerializer{}.Serialize(collector.Collect());
}

} // namespace

TEST_CASE("the families render as Prometheus text with labels and buckets",
          "[unit][metrics]") {
  auto m = std::make_shared<node_metrics>(service::route_count());
  m->negotiations.started.add(3);
  m->negotiations.ended[static_cast<std::size_t>(negotiation_outcome::agreed)].add(2);
  m->negotiations.rounds.observe(4);
  m->store.commit_us.observe(1500);
  m->http.count(service::route_of("/api/v1/agents/bob"), 404);
  auto text = render(m);
  INFO(text);
  CHECK(text.find("parley_negotiations_started_total 3") != std::string::npos);
  CHECK(text.find("parley_negotiations_ended_total{outcome=\"agreed\"} 2") !=
        std::string::npos);
  CHECK(text.find("parley_negotiations_open 1") != std::string::npos);
  CHECK(text.find("parley_negotiation_rounds_bucket{le=\"4\"} 1") != std::string::npos);
  CHECK(text.find("parley_negotiation_rounds_bucket{le=\"3\"} 0") != std::string::npos);
  CHECK(text.find("parley_negotiation_rounds_count 1") != std::string::npos);
  CHECK(text.find("parley_store_commit_duration_seconds_sum 0.0015") !=
        std::string::npos);
  CHECK(text.find("parley_http_requests_total{route=\"/api/v1/agents/"
                  "{id}\",status=\"404\"} 1") != std::string::npos);
  // No series for a route and status never answered.
  CHECK(text.find("status=\"200\"") == std::string::npos);
  std::istringstream lines{text};
  std::regex sample{R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? [-+0-9.eEinfNa]+$)"};
  std::string line;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK((line.empty() || line[0] == '#' || std::regex_match(line, sample)));
    if (!line.empty() && line[0] != '#')
      CHECK(line.rfind("parley_", 0) == 0);
  }
}

} // namespace unit_service_metrics_collector_test
