#include "cli/scenario.hpp"

#include <cstdint>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "config/loader.hpp"
#include "messages/input_limits.hpp"
#include "support/scenario_error.hpp"
#include "support/temp_file.hpp"

namespace unit_cli_scenario_limits_test {

using nlohmann::json;
using parley::cli::load_scenario;
using parley::cli::parse_scenario;

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
  doc["ballots"] =
      json::parse(R"([{"id": "b", "topic": "go?", "voters": ["alice", "bob"],
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
  CHECK(error_of(doc) ==
        out_of_range("negotiations[0].at_ms", 0, "9223372036854775807"));
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
  doc["inject"] =
      json::parse(R"([{"room": "garden", "from": "x", "type": "agent_accept"}])");
  doc["transcripts"] =
      json::parse(R"([{"room": "garden", "speaker": "alice", "text": "hi"}])");
  for (auto path :
       {"/inject/0/at_ms", "/transcripts/0/at_ms", "/ballots/0/at_ms",
        "/ballots/0/votes/0/at_ms", "/auctions/0/at_ms", "/auctions/0/bids/0/at_ms"}) {
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
  CHECK(error_of(doc) ==
        out_of_range("agents[1].script[1].delay_ms", 0, "9223372036854775807"));
  doc["agents"][1]["script"][1]["delay_ms"] = 31536000000;
  CHECK_NOTHROW(parse_scenario(doc.dump(), "s.json"));
}

TEST_CASE("windows and durations of ballots, auctions and bids are bounded", "[unit]") {
  auto doc = with_consensus();
  for (auto path :
       {"/ballots/0/window_ms", "/auctions/0/window_ms", "/auctions/0/base_duration_ms",
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
  CHECK(error_of(doc) ==
        out_of_range("ballots[0].window_ms", 1, "9223372036854775807"));
}

TEST_CASE("the config section's timeouts are refused by the config loader", "[unit]") {
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

TEST_CASE("ids longer than 128 bytes are refused with their path", "[unit]") {
  const std::string long_id(129, 'i');
  const std::string ok_id(128, 'i');
  auto doc = scripted_counter();
  doc["agents"][0]["id"] = ok_id;
  doc["rooms"][0]["participants"][0] = ok_id;
  doc["negotiations"][0]["initiator"] = ok_id;
  CHECK_NOTHROW(parse_scenario(doc.dump(), "s.json"));
  doc["agents"][0]["id"] = long_id;
  CHECK(error_of(doc) ==
        "s.json: agents[0].id: must be at most 128 bytes long, got 129");
  auto with = [&](const char* pointer) {
    auto broken = with_consensus();
    broken["inject"] =
        json::parse(R"([{"room": "garden", "from": "x", "type": "agent_accept"}])");
    broken["transcripts"] =
        json::parse(R"([{"room": "garden", "speaker": "alice", "text": "hi"}])");
    broken[json::json_pointer{pointer}] = long_id;
    return error_of(broken);
  };
  for (auto pointer : {"/agents/1/role",
                       "/rooms/0/id",
                       "/rooms/0/participants/1",
                       "/negotiations/0/room",
                       "/negotiations/0/responder",
                       "/negotiations/0/intent_id",
                       "/inject/0/room",
                       "/inject/0/from",
                       "/inject/0/negotiation",
                       "/inject/0/message_id",
                       "/transcripts/0/room",
                       "/transcripts/0/speaker",
                       "/transcripts/0/source",
                       "/ballots/0/id",
                       "/ballots/0/voters/0",
                       "/ballots/0/task",
                       "/ballots/0/votes/0/voter",
                       "/ballots/0/votes/0/option",
                       "/auctions/0/id",
                       "/auctions/0/task",
                       "/auctions/0/invited/0",
                       "/auctions/0/bids/0/bidder"}) {
    INFO(pointer);
    CHECK_THAT(with(pointer),
               Catch::EndsWith(": must be at most 128 bytes long, got 129"));
  }
}

TEST_CASE("texts longer than 64 KiB are refused with their path", "[unit]") {
  auto doc = scripted_counter();
  auto& description = doc["negotiations"][0]["proposal"]["description"];
  description = std::string(parley::messages::max_text_bytes, 'd');
  CHECK_NOTHROW(parse_scenario(doc.dump(), "s.json"));
  description = std::string(parley::messages::max_text_bytes + 1, 'd');
  CHECK(error_of(doc) == "s.json: negotiations[0].proposal.description: must be at "
                         "most 65536 bytes long, got 65537");
  doc = scripted_counter();
  doc["agents"][0]["script"][0]["reason"] = std::string(70000, 'r');
  CHECK(error_of(doc) == "s.json: agents[0].script[0].reason: must be at most 65536 "
                         "bytes long, got 70000");
}

TEST_CASE("a proposal's terms are capped as compact JSON", "[unit]") {
  json terms = json::object();
  for (int i = 0; i < 2000; ++i)
    terms["clause_" + std::to_string(i)] = std::string(40, 't');
  auto doc = scripted_counter();
  doc["negotiations"][0]["proposal"]["terms"] = terms;
  CHECK_THAT(error_of(doc),
             Catch::StartsWith("s.json: negotiations[0].proposal.terms: "
                               "must be at most 65536 bytes long, got "));
  doc = scripted_counter();
  doc["agents"][0]["script"][0]["proposal"]["terms"] = terms;
  CHECK_THAT(error_of(doc), Catch::StartsWith("s.json: agents[0].script[0].proposal."
                                              "terms: must be at most 65536 bytes"));
}

TEST_CASE("deeply nested values are refused before they are copied", "[unit]") {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto text = scripted_counter().dump();
  text.replace(text.find("\"Garden landscaping\""), 20, deep);
  CHECK_THAT(error_of(text),
             Catch::StartsWith("s.json: negotiations[0].proposal.description") &&
                 Catch::EndsWith("objects and arrays must nest at most 64 deep"));
}

TEST_CASE("a scenario file over the size cap is refused before it is read", "[unit]") {
  // Issue 11's 50 MB scenario: valid but for one 50 MB description.
  auto text = scripted_counter().dump();
  text.insert(text.find("Garden landscaping"), std::size_t{50} << 20, 'x');
  parley::test::temp_file file{text};
  CHECK_THROWS_WITH(load_scenario(file.path()),
                    file.path() + ": the file is larger than the cap of 4194304 bytes "
                                  "on input files");
  CHECK_THROWS_WITH(load_scenario(file.path(), 1024),
                    file.path() + ": the file is larger than the cap of 1024 bytes "
                                  "on input files");
}

TEST_CASE("a number beyond a double's range is refused, not thrown", "[unit]") {
  auto text = scripted_counter().dump();
  text.replace(text.find("\"at_ms\":0"), 10, "\"at_ms\":1e999");
  CHECK(error_of(text) == "s.json: (document): invalid JSON: number overflow parsing "
                          "'1e999'");
}

} // namespace unit_cli_scenario_limits_test
