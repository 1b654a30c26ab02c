#include <string>

#include <catch2/catch.hpp>

#include "cli/scenario.hpp"

namespace unit_cli_scenario_channels_test {

using parley::messages::demand_status;
using parley::messages::member_brain_kind;
using parley::messages::scripted_offer;
using parley::cli::parse_scenario;
using parley::cli::scenario_error;

namespace {

/// Channel members for the tests: two rule members and a scripted one.
const std::string members = R"("channel_agents": [
  {"profile": {"agent_id": "hall", "capabilities": ["venue"]}},
  {"profile": {"agent_id": "chef", "capabilities": ["catering"]}, "accept_from_round": 3},
  {"profile": {"agent_id": "mute", "capabilities": ["music"]}, "brain": "script",
   "script": [{"offer": "silent"}]}
])";

/// Parses a scenario of `members` and `demands`.
parley::cli::scenario parse(const std::string& demands,
                                const std::string& agents = members) {
  return parse_scenario("{" + agents + R"(, "demands": )" + demands + "}", "t.json");
}

/// Where parsing the scenario fails, and why: "location: reason".
std::string error_at(const std::string& demands, const std::string& agents = members) {
  try {
    parse(demands, agents);
  } catch (const scenario_error& e) {
    return e.location() + ": " + e.reason();
  }
  return "(accepted)";
}

} // namespace

TEST_CASE("channel agents and demands parse without agents or rooms", "[unit]") {
  auto x = parse(R"([
    {"raw_input": "venue and catering", "demand_id": "d1", "user_id": "u",
     "expect": {"status": "force_finalized", "confirmed": ["hall", "chef"],
                "rounds": 5, "subchannels": 0}},
    {"at_ms": 250, "raw_input": "music please",
     "expect": {"status": "failed", "reason": "low_acceptance"}}
  ])");
  REQUIRE(x.channel_agents.size() == 3);
  CHECK(x.channel_agents[1].accept_from_round == 3);
  CHECK(x.channel_agents[2].brain == member_brain_kind::script);
  CHECK(x.channel_agents[2].script.at(0).offer == scripted_offer::silent);
  REQUIRE(x.demands.size() == 2);
  CHECK(x.demands[0].demand_id == "d1");
  CHECK(x.demands[0].user_id == "u");
  REQUIRE(x.demands[0].expect);
  CHECK(x.demands[0].expect->status == demand_status::force_finalized);
  CHECK(*x.demands[0].expect->rounds == 5);
  CHECK(*x.demands[0].expect->subchannels == 0);
  CHECK(x.demands[0].expect->confirmed->size() == 2);
  CHECK_FALSE(x.demands[0].expect->reason);
  CHECK(x.demands[1].at_ms == 250);
  CHECK(x.demands[1].demand_id.empty());
  CHECK(*x.demands[1].expect->reason == "low_acceptance");
  CHECK_FALSE(x.demands[1].expect->rounds);
  CHECK(x.agents.empty());
  CHECK(x.rooms.empty());
}

TEST_CASE("a scenario without channel agents still needs agents and rooms", "[unit]") {
  try {
    parse_scenario(R"({"demands": []})", "t.json");
    FAIL("accepted");
  } catch (const scenario_error& e) {
    CHECK(e.location() == "agents");
  }
}

TEST_CASE("channel agents are checked and named by path", "[unit]") {
  CHECK(error_at("[]", R"("channel_agents": {})") ==
        "channel_agents: expected an array, got an object");
  CHECK(error_at("[]", R"("channel_agents": [{"profile": {}}])")
            .rfind("channel_agents[0].profile.agent_id: ", 0) == 0);
  CHECK(error_at("[]",
                 R"("channel_agents": [{"profile": {"agent_id": "a"}, "brain": "x"}])")
            .rfind("channel_agents[0].brain: ", 0) == 0);
  CHECK(error_at("[]",
                 R"("channel_agents": [{"profile": {"agent_id": "a"}, "colour": 1}])")
            .rfind("channel_agents[0]", 0) == 0);
  CHECK(error_at("[]", R"("channel_agents": [{"profile": {"agent_id": "a"},
                                               "accept_from_round": 0}])")
            .rfind("channel_agents[0]: ", 0) == 0);
  CHECK(
      error_at("[]", R"("channel_agents": [{"profile": {"agent_id": "a"}},
                                               {"profile": {"agent_id": "a"}}])") ==
      "channel_agents[1].profile.agent_id: duplicate channel agent id \"a\" (first at "
      "channel_agents[0])");
}

TEST_CASE("demands are checked and named by path", "[unit]") {
  CHECK(error_at("{}") == "demands: expected an array, got an object");
  CHECK(error_at(R"([{}])").rfind("demands[0].raw_input: ", 0) == 0);
  CHECK(error_at(R"([{"raw_input": "  "}])") ==
        "demands[0].raw_input: must not be empty");
  CHECK(
      error_at(R"([{"raw_input": "x", "at_ms": -1}])").rfind("demands[0].at_ms: ", 0) ==
      0);
  CHECK(error_at(R"([{"raw_input": "x", "demand_id": "d"},
                     {"raw_input": "y", "demand_id": "d"}])") ==
        "demands[1].demand_id: duplicate id \"d\"");
  CHECK(error_at(R"([{"raw_input": "x", "colour": 1}])").rfind("demands[0]", 0) == 0);
  CHECK(error_at(R"([{"raw_input": "x"}])", R"("channel_agents": [])") ==
        "demands[0]: a demand needs channel_agents to take it up");
}

TEST_CASE("expectations are checked and named by path", "[unit]") {
  auto expect = [](const std::string& e) {
    return error_at(R"([{"raw_input": "x", "expect": )" + e + "}]");
  };
  CHECK(expect("{}").rfind("demands[0].expect.status: ", 0) == 0);
  CHECK(expect(R"({"status": "processing"})") ==
        "demands[0].expect.status: expected one of finalized | force_finalized | "
        "failed, got \"processing\"");
  CHECK(expect(R"({"status": "done"})").rfind("demands[0].expect.status: ", 0) == 0);
  CHECK(expect(R"({"status": "failed", "reason": "bored"})")
            .rfind("demands[0].expect.reason: expected one of low_acceptance", 0) == 0);
  CHECK(expect(R"({"status": "finalized", "reason": "timeout"})") ==
        "demands[0].expect.reason: only a failed demand has a reason");
  CHECK(expect(R"({"status": "finalized", "confirmed": ["hall", "zed"]})") ==
        "demands[0].expect.confirmed[1]: unknown channel agent \"zed\"");
  CHECK(expect(R"({"status": "finalized", "rounds": 0})")
            .rfind("demands[0].expect.rounds: ", 0) == 0);
  CHECK(expect(R"({"status": "finalized", "subchannels": -1})")
            .rfind("demands[0].expect.subchannels: ", 0) == 0);
  CHECK(
      expect(R"({"status": "finalized", "round": 1})").rfind("demands[0].expect", 0) ==
      0);
}

} // namespace unit_cli_scenario_channels_test
