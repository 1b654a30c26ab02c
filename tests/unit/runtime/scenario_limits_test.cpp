#include "runtime/scenario.hpp"

#include <cstdint>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "config/loader.hpp"
#include "support/scenario_error.hpp"

using nlohmann::json;
using parley::runtime::parse_scenario;

namespace {

constexpr std::int64_t int64_max = 9223372036854775807;

/// The scenario of issue 11's reproductions.
json scripted_counter() {
  std::ifstream in{PARLEY_SOURCE_DIR "/examples/scenarios/scripted_counter.json"};
  return json::parse(in);
}

/// A ballot and an auction over scripted_counter's agents.
json with_consensus() {
  auto doc = scripted_counter();
  doc["ballots"] = json::parse(R"([{"id": "b", "topic": "go?", "voters": ["alice", "bob"],
      "votes": [{"at_ms": 10, "voter": "alice", "option": "approve"}]}])");
  doc["auctions"] = json::parse(R"([{"id": "a", "task": "build", "invited": ["alice"],
      "bids": [{"at_ms": 10, "bidder": "alice", "capability": 0.5, "load": 0.5,
                "estimated_duration_ms": 100}]}])");
  return doc;
}

std::string error_of(const json& doc) {
  return parley::test::scenario_error_of(doc.dump(), "s.json");
}

std::string error_of(const std::string& text) {
  return parley::test::scenario_error_of(text, "s.json");
}

/// The error of a time at `path` outside `min`..one year.
std::string out_of_range(const std::string& path, int min, const std::string& value) {
  return "s.json: " + path + ": must be within " + std::to_string(min) +
         "..31536000000, got " + value;
}

} // namespace

TEST_CASE("the example scenarios keep every limit", "[unit]") {
  CHECK_NOTHROW(parse_scenario(scripted_counter().dump(), "s.json"));
  CHECK_NOTHROW(parse_scenario(with_consensus().dump(), "s.json"));
}

TEST_CASE("a step due beyond the horizon is refused, not wrapped", "[unit]") {
  auto doc = scripted_counter();
  auto& at = doc["negotiations"][0]["at_ms"];
  at = int64_max;
  CHECK(error_of(doc) == out_of_range("negotiations[0].at_ms", 0, "9223372036854775807"));
  // The smallest value whose nanoseconds overflow int64 (it used to hang).
  at = 9223372036855;
  CHECK(error_of(doc) == out_of_range("negotiations[0].at_ms", 0, "9223372036855"));
  at = 100000000000000;
  CHECK(error_of(doc) == out_of_range("negotiations[0].at_ms", 0, "100000000000000"));
  at = 31536000001;
  CHECK(error_of(doc) == out_of_range("negotiations[0].at_ms", 0, "31536000001"));
  at = -1;
  CHECK(error_of(doc) == out_of_range("negotiations[0].at_ms", 0, "-1"));
  at = 31536000000;
  CHECK_NOTHROW(parse_scenario(doc.dump(), "s.json"));
  // 1e14 is a number with a fraction in JSON, never an integer.
  auto text = doc.dump();
  text.replace(text.find("31536000000"), 11, "1e14");
  CHECK(error_of(text) == "s.json: negotiations[0].at_ms: expected an integer, "
                          "got a number with a fraction");
}

TEST_CASE("every at_ms of a scenario is checked against the horizon", "[unit]") {
  auto doc = with_consensus();
  doc["inject"] = json::parse(R"([{"room": "garden", "from": "x", "type": "agent_accept"}])");
  doc["transcripts"] =
      json::parse(R"([{"room": "garden", "speaker": "alice", "text": "hi"}])");
  for (auto path : {"/inject/0/at_ms", "/transcripts/0/at_ms", "/ballots/0/at_ms",
                    "/ballots/0/votes/0/at_ms", "/auctions/0/at_ms",
                    "/auctions/0/bids/0/at_ms"}) {
    auto broken = doc;
    broken[json::json_pointer{path}] = int64_max;
    std::string dotted = path;
    INFO(dotted);
    CHECK_THAT(error_of(broken),
               Catch::EndsWith("at_ms: must be within 0..31536000000, got "
                               "9223372036854775807"));
  }
}

TEST_CASE("a script step's delay beyond a year is refused", "[unit]") {
  auto doc = scripted_counter();
  doc["agents"][1]["script"][1]["delay_ms"] = int64_max;
  CHECK(error_of(doc) == out_of_range("agents[1].script[1].delay_ms", 0, "9223372036854775807"));
  doc["agents"][1]["script"][1]["delay_ms"] = 31536000000;
  CHECK_NOTHROW(parse_scenario(doc.dump(), "s.json"));
}

TEST_CASE("windows and durations of ballots, auctions and bids are bounded",
          "[unit]") {
  auto doc = with_consensus();
  for (auto path : {"/ballots/0/window_ms", "/auctions/0/window_ms",
                    "/auctions/0/base_duration_ms",
                    "/auctions/0/bids/0/estimated_duration_ms"}) {
    std::string where = path;
    INFO(where);
    for (auto value : {int64_max, std::int64_t{31536000001}, std::int64_t{0}}) {
      auto broken = doc;
      broken[json::json_pointer{where}] = value;
      CHECK_THAT(error_of(broken),
                 Catch::EndsWith(": must be within 1..31536000000, got " +
                                 std::to_string(value)));
    }
  }
  doc["ballots"][0]["window_ms"] = int64_max;
  CHECK(error_of(doc) == out_of_range("ballots[0].window_ms", 1, "9223372036854775807"));
}

TEST_CASE("the config section's timeouts are refused by the config loader",
          "[unit]") {
  auto doc = scripted_counter();
  doc["config"] = {{"negotiation", {{"round_timeout_ms", int64_max}}}};
  auto plan = parse_scenario(doc.dump(), "s.json");
  parley::config::settings s;
  auto before = s;
  CHECK_THROWS_WITH(parley::config::apply_overrides(s, plan.config, "s.json: config"),
                    "s.json: config: negotiation.round_timeout_ms must be within "
                    "1..31536000000, got 9223372036854775807");
  CHECK(s == before);
  doc["config"] = {{"negotiation", {{"total_timeout_ms", int64_max}}}};
  plan = parse_scenario(doc.dump(), "s.json");
  CHECK_THROWS_WITH(parley::config::apply_overrides(s, plan.config, "s.json: config"),
                    "s.json: config: negotiation.total_timeout_ms must be within "
                    "1..31536000000, got 9223372036854775807");
}
