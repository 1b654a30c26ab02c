// The API's body readers against what docs/openapi.json says of them, and
// the error texts they compose.
#include "service/bodies.hpp"

#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "messages/json_reader.hpp"
#include "service/errors.hpp"

namespace unit_service_bodies_test {

using nlohmann::json;
using parley::messages::json_error;
using parley::service::parse_body;
using parley::service::read_agent;

namespace {

/// The json_error `f()` throws ("" if none).
template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const json_error& e) {
    return e.what();
  }
  return {};
}

json openapi() {
  std::ifstream in{PARLEY_SOURCE_DIR "/docs/openapi.json"};
  REQUIRE(in);
  return json::parse(in);
}

/// The schema `ref` ("#/components/schemas/NewAgent") points to.
const json& schema_at(const json& doc, const std::string& ref) {
  return doc["components"]["schemas"][ref.substr(ref.rfind('/') + 1)];
}

} // namespace

TEST_CASE("openapi's agent body requires exactly what read_agent requires", "[unit]") {
  auto doc = openapi();
  const auto& body = doc["paths"]["/api/v1/agents"]["post"]["requestBody"]["content"]
                        ["application/json"]["schema"];
  const auto& schema = schema_at(doc, body["$ref"].get<std::string>());
  std::set<std::string> required;
  for (const auto& x : schema["required"])
    required.insert(x.get<std::string>());
  CHECK(required.count("profile") == 0);
  const json full = {
      {"id", "alice"}, {"profile", json::object()}, {"brain", {{"kind", "external"}}}};
  REQUIRE(error_of([&] { read_agent(full); }).empty());
  for (const auto& field : schema["properties"].items()) {
    INFO(field.key());
    REQUIRE(full.contains(field.key()));
    auto without = full;
    without.erase(field.key());
    auto refused = !error_of([&] { read_agent(without); }).empty();
    CHECK(refused == (required.count(field.key()) == 1));
  }
}

TEST_CASE("the brain-kind error lists every kind, external among them", "[unit]") {
  auto what = error_of([] {
    read_agent(json{{"id", "a"}, {"brain", {{"kind", "oracle"}}}});
  });
  CHECK(what ==
        "brain.kind: expected one of rule | script | llm | external | strategy, "
        "got \"oracle\"");
  for (const auto* kind : {"rule", "llm", "external", "strategy"})
    CHECK(error_of([kind] {
            read_agent(json{{"id", "a"}, {"brain", {{"kind", kind}}}});
          }).empty());
  auto boulware = read_agent(
      json{{"id", "a"},
           {"brain", {{"kind", "strategy"}, {"strategy", "boulware"}, {"seed", 7}}}});
  CHECK(boulware.brain.strategy == parley::messages::strategy_kind::boulware);
  CHECK(boulware.brain.seed == 7);
  CHECK(error_of([] {
          read_agent(json{{"id", "a"},
                          {"brain", {{"kind", "strategy"}, {"strategy", "stubborn"}}}});
        }) ==
        "brain.strategy: expected one of boulware | linear | conceder | hardliner | "
        "random | tit_for_tat | micro, got \"stubborn\"");
}

TEST_CASE("a body's number overflow names the document once", "[unit]") {
  CHECK(error_of([] { parse_body(R"({"id": 1e800})"); }) ==
        "(document): invalid JSON: number overflow parsing '1e800'");
  CHECK(error_of([] { parse_body("{\"id\": }"); }) ==
        "(document): line 1, column 8: invalid JSON: parse error at line 1, column 8: "
        "syntax error while parsing value - unexpected '}'; expected '[', '{', or a "
        "literal");
}

TEST_CASE("a body's key given twice names its path", "[unit]") {
  CHECK(error_of([] {
          parse_body(R"({"id": "a", "brain": {"kind": "rule", "kind": "llm"}})");
        }) == "brain.kind: duplicate key \"kind\" at line 1, column 39");
}

TEST_CASE("an error body is valid UTF-8 JSON whatever it quotes", "[unit]") {
  using parley::messages::error_code;
  auto r = parley::service::error_response(
      error_code::route_not_found, "no dashboard file /assets/\xff",
      {{"field", "a\xc3"}, {"list", {"\xed\xa0\x80"}}, {"k\xff", 1}});
  CHECK(r.status == 404);
  auto body = json::parse(r.body); // throws on a byte that is not UTF-8
  CHECK(body["message"] == "no dashboard file /assets/\\xFF");
  CHECK(body["details"]["field"] == "a\\xC3");
  CHECK(body["details"]["list"][0] == "\\xED\\xA0\\x80");
  CHECK(body["details"]["k\\xFF"] == 1);
}

TEST_CASE("a 405 names the route's methods", "[unit]") {
  auto r = parley::service::not_allowed_response("PUT", "/api/v1/agents", "GET, POST");
  CHECK(r.status == 405);
  CHECK(r.allow == "GET, POST");
  CHECK(json::parse(r.body)["error_code"] == "E033");
}

TEST_CASE("a UUID error quotes the value cut short and still UTF-8", "[unit]") {
  auto what = error_of(
      [] { parley::service::check_uuid(std::string(63, 'a') + "\xe2\x82\xac", "id"); });
  CHECK(what == "id: expected a UUID, got \"" + std::string(63, 'a') + "\"");
}

} // namespace unit_service_bodies_test
