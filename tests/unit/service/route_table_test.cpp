// The route table of `parley serve` (service/route_table.cpp): held to
// docs/openapi.json, and what it makes of a request's method and path.
#include "service/route_table.hpp"

#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

namespace unit_service_route_table_test {

using namespace parley::service;
using nlohmann::json;

namespace {

json read_openapi() {
  std::ifstream in{PARLEY_SOURCE_DIR "/docs/openapi.json"};
  REQUIRE(in);
  return json::parse(in);
}

/// The keys of an OpenAPI path item that are operations.
const std::set<std::string> operation_keys{"get",  "put",     "post",  "delete",
                                           "head", "options", "patch", "trace"};

/// Whether an operation with `security` (its own, else the document's)
/// needs the bearer token: a list with a requirement, none of them empty
/// (`{}` lets anyone in). Nothing when neither states any.
std::optional<bool> token_of(const json& security) {
  if (security.is_null())
    return std::nullopt;
  auto needed = !security.empty();
  for (const auto& requirement : security)
    needed = needed && !requirement.empty();
  return needed;
}

/// The operations of docs/openapi.json, "METHOD /path", each with whether it
/// needs the token (when the document says).
std::map<std::string, std::optional<bool>> documented_operations() {
  auto doc = read_openapi();
  const auto everywhere = doc.value("security", json());
  std::map<std::string, std::optional<bool>> out;
  for (const auto& path : doc.at("paths").items())
    for (const auto& op : path.value().items()) {
      auto method = op.key();
      if (operation_keys.count(method) == 0)
        continue; // parameters, summary, ...: not an operation
      for (auto& c : method)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out[method + " " + path.key()] =
          token_of(op.value().value("security", everywhere));
    }
  return out;
}

/// The routes of the table, "METHOD /pattern", each with whether it needs
/// the token.
std::map<std::string, bool> table_routes() {
  std::map<std::string, bool> out;
  for (const auto& r : all_routes())
    out[std::string{r.method} + " " + std::string{r.pattern}] = r.rules.token;
  return out;
}

std::string label(const std::string& target) {
  return std::string{route_name(route_of(target))};
}

} // namespace

TEST_CASE("every route of the table is in docs/openapi.json, and every operation "
          "of docs/openapi.json a route of the table",
          "[unit]") {
  auto documented = documented_operations();
  auto routes = table_routes();
  REQUIRE_FALSE(routes.empty());
  for (const auto& [route, token] : routes)
    if (documented.count(route) == 0)
      FAIL_CHECK(route << " is a route of service/route_table.cpp but not an "
                          "operation of docs/openapi.json");
  for (const auto& [operation, token] : documented)
    if (routes.count(operation) == 0)
      FAIL_CHECK(operation << " is an operation of docs/openapi.json but not a "
                              "route of service/route_table.cpp");
}

TEST_CASE("a route needs the bearer token exactly when docs/openapi.json's "
          "security says so",
          "[unit]") {
  auto documented = documented_operations();
  for (const auto& [route, token] : table_routes()) {
    auto doc = documented.find(route);
    if (doc == documented.end() || !doc->second)
      continue;
    if (*doc->second != token)
      FAIL_CHECK(route << ": service/route_table.cpp says it "
                       << (token ? "needs" : "does not need")
                       << " the bearer token, docs/openapi.json's security that it "
                       << (*doc->second ? "does" : "does not"));
  }
}

TEST_CASE("a path is counted under its route's label, never itself",
          "[unit][metrics]") {
  CHECK(label("/healthz") == "/healthz");
  CHECK(label("/metrics") == "/metrics");
  CHECK(label("/api/v1/agents") == "/api/v1/agents");
  CHECK(label("/api/v1/agents/") == "/api/v1/agents");
  CHECK(label("/api/v1/agents/alice") == "/api/v1/agents/{id}");
  CHECK(label("/api/v1/agents/alice/inbox") == "/api/v1/agents/{id}/inbox");
  CHECK(label("/api/v1/negotiations?state=accepted") == "/api/v1/negotiations");
  CHECK(label("/api/v1/negotiations/0b0e/messages") ==
        "/api/v1/negotiations/{id}/messages");
  CHECK(label("/api/v1/demand/submit") == "/api/v1/demand/submit");
  CHECK(label("/api/v1/events/negotiations/d-1/stream?last_event_id=3") ==
        "/api/v1/events/negotiations/{id}/stream");
  CHECK(label("/") == "/");
  CHECK(label("/assets/app.js") == "/assets/*");
  // An empty parameter is its route's to refuse (E001 or E008), and counted
  // under it.
  CHECK(label("/api/v1/agents//inbox") == "/api/v1/agents/{id}/inbox");
}

TEST_CASE("paths no route has share one label", "[unit][metrics]") {
  for (const char* x : {"", "/nope", "/api/v1/agents/a/b/c", "/api/v1//x", "/assets",
                        "/assets/js/app.js", "/metricsx", "//", "/index.html"})
    CHECK(label(x) == "other");
  CHECK(route_of("/nope") == route_count() - 1);
  CHECK(route_name(route_count()) == "other");
}

TEST_CASE("a path's routes give its parameters, its methods and its rules", "[unit]") {
  auto agent = match_route("POST", "/api/v1/agents/caf%C3%A9?x=1");
  REQUIRE(agent.path != nullptr);
  CHECK(agent.path->pattern == "/api/v1/agents/{id}");
  CHECK(agent.found == nullptr);
  CHECK(agent.params[0] == "caf%C3%A9");
  CHECK(allowed_methods(*agent.path) == "GET, DELETE");
  auto removed = match_route("DELETE", "/api/v1/agents/bob");
  REQUIRE(removed.found != nullptr);
  CHECK(removed.found->method == "DELETE");
  CHECK(allowed_methods(*removed.found) == "GET, DELETE");
  CHECK(allowed_methods(*match_route("PUT", "/api/v1/negotiations").path) ==
        "GET, POST");
  auto none = match_route("GET", "/api/v2/agents");
  CHECK(none.path == nullptr);
  CHECK(none.found == nullptr);

  CHECK(rules_of("/healthz").health_slot);
  CHECK(rules_of("/readyz?verbose=1").health_slot);
  CHECK(rules_of("/healthz/").health_slot);
  CHECK_FALSE(rules_of("/api/v1/agents").health_slot);
  CHECK_FALSE(rules_of("/").health_slot);
  CHECK_FALSE(rules_of("").health_slot);
  CHECK_FALSE(rules_of("/healthz").token);
  CHECK_FALSE(rules_of("/").token);
  CHECK_FALSE(rules_of("/assets/app.js").token);
  CHECK(rules_of("/metrics").token);
  CHECK(rules_of("/api/v1/stats").token);
  CHECK(rules_of("/nope").token);
  CHECK(rules_of("/api/v1/stats").after_recovery);
  CHECK_FALSE(rules_of("/metrics").after_recovery);
  CHECK_FALSE(rules_of("/readyz").after_recovery);
}

} // namespace unit_service_route_table_test
