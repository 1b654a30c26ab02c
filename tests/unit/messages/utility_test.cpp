#include "messages/utility.hpp"

#include <string>

#include <catch2/catch.hpp>

#include "messages/json.hpp"

namespace unit_messages_utility_test {

using nlohmann::json;
using parley::messages::from_json_value;
using parley::messages::json_error;
using parley::messages::outcome_count;
using parley::messages::outcome_domain;
using parley::messages::utility_spec;
using parley::messages::validate;

namespace {

const char* website = R"({
  "domain": {
    "amount": {"min": 80000, "max": 200000, "step": 6000},
    "escrow": true,
    "terms": [{"name": "deadline_days", "values": [14, 21, 30]},
              {"name": "speed", "values": ["standard", "express"]}]
  },
  "weights": {"amount": 0.6, "escrow": 0.1, "deadline_days": 0.3},
  "values": {"escrow": [0, 1], "deadline_days": [1, 0.6, 0.2]},
  "reservation": 0.3
})";

std::string read_error(const std::string& text) {
  try {
    from_json_value<utility_spec>(json::parse(text));
  } catch (const json_error& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("a utility reads from JSON with term values kept as their JSON text") {
  auto u = from_json_value<utility_spec>(json::parse(website));
  CHECK(u.domain.amount.min == 80000);
  CHECK(u.domain.amount.step == 6000);
  CHECK(u.domain.escrow);
  REQUIRE(u.domain.terms.size() == 2);
  CHECK(u.domain.terms[0].values == std::vector<std::string>{"14", "21", "30"});
  CHECK(u.domain.terms[1].values ==
        std::vector<std::string>{"\"standard\"", "\"express\""});
  CHECK(u.weights.at("deadline_days") == 0.3);
  CHECK(u.reservation == 0.3);
  // 21 amounts x 2 escrow x 3 days x 2 speeds.
  CHECK(outcome_count(u.domain) == 21 * 2 * 3 * 2);
  // And back: the values are JSON scalars again.
  json j = u;
  CHECK(j["domain"]["terms"][0]["values"] == json::parse("[14, 21, 30]"));
  CHECK(j["domain"]["terms"][1]["values"] == json::parse(R"(["standard", "express"])"));
  CHECK(from_json_value<utility_spec>(j) == u);
}

TEST_CASE("a utility that does not fit its domain is refused, naming the field") {
  auto with = [](const std::string& key, const std::string& value) {
    auto j = json::parse(website);
    j[key] = json::parse(value);
    return read_error(j.dump());
  };
  CHECK_THAT(with("weights", R"({"days": 1})"),
             Catch::Contains("weights.days names no issue of the domain"));
  CHECK_THAT(with("weights", R"({"amount": -1})"),
             Catch::Contains("weights.amount must be finite and >= 0"));
  CHECK_THAT(with("weights", R"({"amount": 0})"),
             Catch::Contains("weights must not all be 0"));
  CHECK_THAT(with("values", R"({"deadline_days": [1, 0.5]})"),
             Catch::Contains("values.deadline_days has 2 values; the issue has 3"));
  CHECK_THAT(with("values", R"({"escrow": [0, 1.5]})"),
             Catch::Contains("values.escrow must be within 0..1"));
  CHECK_THAT(with("reservation", "1.2"),
             Catch::Contains("reservation must be within 0..1"));
  CHECK_THAT(read_error(R"({"domain": {"amount": {"min": 0, "max": 1}}})"),
             Catch::Contains("domain.amount.min must be positive"));
  CHECK_THAT(read_error(R"({"domain": {"amount": {"min": 5, "max": 1}}})"),
             Catch::Contains("domain.amount.max must not be below amount.min"));
  CHECK_THAT(read_error(R"({"domain": {"amount": {"min": 1, "max": 10, "step": 0}}})"),
             Catch::Contains("domain.amount.step must be positive"));
  CHECK_THAT(read_error(R"({"domain": {"amount": {"min": 1, "max": 100001}}})"),
             Catch::Contains("amount has 100001 values; at most 10000"));
  CHECK_THAT(read_error(R"({"domain": {"amount": {"min": 1, "max": 2},
                            "terms": [{"name": "a", "values": [{"x": 1}]}]}})"),
             Catch::Contains("expected a string, a number or a boolean"));
  CHECK_THAT(read_error(R"({"domain": {"amount": {"min": 1, "max": 2},
                            "terms": [{"name": "amount", "values": [1]}]}})"),
             Catch::Contains("terms.amount is named twice"));
  CHECK_THAT(read_error(R"({"domain": {"amount": {"min": 1, "max": 2},
                            "terms": [{"name": "a", "values": [1, 1]}]}})"),
             Catch::Contains("terms.a lists a value twice"));
}

TEST_CASE("a domain has at most 100,000 outcomes") {
  outcome_domain d;
  d.amount = {1, 10000, 1};
  CHECK(validate(d).empty());
  d.terms = {{"a", {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"}}};
  CHECK(outcome_count(d) == 100'001);
  CHECK(validate(d) == "the domain has more than 100000 outcomes");
}

} // namespace unit_messages_utility_test
