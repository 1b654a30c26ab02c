#include "service/route_pattern.hpp"

#include <string>

#include <catch2/catch.hpp>

using namespace parley::service;

namespace {

std::string pattern(const std::string& target) {
  return route_name(route_of(target));
}

} // namespace

TEST_CASE("a path is counted under its route pattern, never itself",
          "[unit][metrics]") {
  CHECK(pattern("/healthz") == "/healthz");
  CHECK(pattern("/metrics") == "/metrics");
  CHECK(pattern("/api/v1/agents") == "/api/v1/agents");
  CHECK(pattern("/api/v1/agents/") == "/api/v1/agents");
  CHECK(pattern("/api/v1/agents/alice") == "/api/v1/agents/{id}");
  CHECK(pattern("/api/v1/agents/alice/inbox") == "/api/v1/agents/{id}/inbox");
  CHECK(pattern("/api/v1/negotiations?state=accepted") == "/api/v1/negotiations");
  CHECK(pattern("/api/v1/negotiations/0b0e/messages") ==
        "/api/v1/negotiations/{id}/messages");
  CHECK(pattern("/api/v1/demand/submit") == "/api/v1/demand/submit");
  CHECK(pattern("/api/v1/events/negotiations/d-1/stream?last_event_id=3") ==
        "/api/v1/events/negotiations/{id}/stream");
  CHECK(pattern("/") == "/");
  CHECK(pattern("/assets/js/app.js") == "/assets/*");
}

TEST_CASE("paths no pattern matches share one label", "[unit][metrics]") {
  for (const char* x : {"", "/nope", "/api/v1/agents/a/b/c", "/api/v1//x", "/assets",
                        "/api/v1/agents//inbox", "/metricsx"})
    CHECK(pattern(x) == "other");
  CHECK(route_of("/nope") == route_count() - 1);
}
