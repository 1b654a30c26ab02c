#include "tournament/spec.hpp"

#include <string>

#include <catch2/catch.hpp>

namespace unit_tournament_spec_test {

using parley::tournament::parse_spec;
using parley::tournament::player_names;
using parley::tournament::spec_error;

namespace {

const char* one_scenario = R"({
  "scenarios": [{
    "name": "price",
    "domain": {"amount": {"min": 1, "max": 11}},
    "buyer": {"reservation": 0.3},
    "seller": {"reservation": 0.1}
  }]
})";

std::string error_of(const std::string& text) {
  try {
    parse_spec(text);
  } catch (const spec_error& e) {
    return e.what();
  }
  return "";
}

/// `one_scenario` with `key` set to `value` at the top.
std::string with_top(const std::string& key, const std::string& value) {
  std::string text = one_scenario;
  return "{\"" + key + "\": " + value + "," + text.substr(1);
}

} // namespace

TEST_CASE("a spec without a lineup fields every strategy, ten repetitions, no noise") {
  auto spec = parse_spec(one_scenario);
  REQUIRE(spec.players.size() == 10);
  CHECK(player_names().size() == 10);
  CHECK(spec.players[0].name == "boulware");
  CHECK(spec.players[9].name == "rule_conservative");
  CHECK(spec.repetitions == 10);
  CHECK(spec.noise.opening == 0.0);
  REQUIRE(spec.scenarios.size() == 1);
  const auto& s = spec.scenarios[0];
  CHECK(s.max_rounds == 10);
  CHECK(s.currency == "GBP");
  CHECK(s.buyer.domain == s.domain);
  CHECK(s.seller.reservation == 0.1);
}

TEST_CASE("a spec that cannot be played is refused, naming the field") {
  CHECK_THAT(error_of(with_top("strategies", R"(["linear", "sneaky"])")),
             Catch::Contains("strategies[1]: unknown strategy \"sneaky\"; known: "
                             "boulware, linear"));
  CHECK_THAT(error_of(with_top("strategies", R"(["linear", "linear"])")),
             Catch::Contains("strategies[1]: \"linear\" is listed twice"));
  CHECK_THAT(error_of(with_top("strategies", "[]")),
             Catch::Contains("strategies: needs at least one strategy"));
  CHECK_THAT(error_of(with_top("repetitions", "0")),
             Catch::Contains("repetitions: must be within 1..100000"));
  CHECK_THAT(error_of(with_top("noise", R"({"opening": 2})")),
             Catch::Contains("noise.opening: must be within 0..1"));
  CHECK_THAT(error_of(with_top("noise", R"({"openings": 0.1})")),
             Catch::Contains("noise.openings: unknown field"));
  CHECK_THAT(error_of(R"({"scenarios": []})"),
             Catch::Contains("scenarios: expected a non-empty array"));
  CHECK_THAT(error_of(R"({"scenarios": [{"name": "x", "domain": {"amount": {"min": 1,
               "max": 11}}, "buyer": {"weights": {"days": 1}}, "seller": {}}]})"),
             Catch::Contains("scenarios[0].buyer: weights.days names no issue"));
  CHECK_THAT(
      error_of(R"({"scenarios": [{"name": "x", "domain": {"amount": {"min": 1,
               "max": 11}}, "buyer": {"domain": {}}, "seller": {}}]})"),
      Catch::Contains("scenarios[0].buyer.domain: the domain is the scenario's"));
  CHECK_THAT(error_of(R"({"scenarios": [{"name": "x", "max_rounds": 30, "domain":
               {"amount": {"min": 1, "max": 11}}, "buyer": {}, "seller": {}}]})"),
             Catch::Contains("scenarios[0].max_rounds: must be within 1..20"));
  CHECK_THAT(error_of("{"), Catch::Contains("not valid JSON"));
}

} // namespace unit_tournament_spec_test
