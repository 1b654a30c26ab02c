#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "support/process.hpp"

namespace integration_channel_scenarios_test {

using Catch::Matchers::Contains;
using parley::test::run_parley;
using parley::test::write_temp_file;

namespace {

const std::string examples = std::string{PARLEY_SOURCE_DIR} + "/examples/scenarios/";

/// The summary line of a run's output: its last line that is a JSON summary.
nlohmann::json summary_of(const std::string& output) {
  auto end = output.size();
  while (end > 0) {
    auto begin = output.rfind('\n', end - 1);
    begin = begin == std::string::npos ? 0 : begin + 1;
    auto line = output.substr(begin, end - begin);
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object() && j.value("type", "") == "summary")
      return j;
    if (begin == 0)
      break;
    end = begin - 1;
  }
  return nlohmann::json::object();
}

/// What a channel example should come to.
struct outcome {
  const char* file;
  const char* terminal_event;
  int finalized;
  int force_finalized;
  int failed;
  int channels;
};

const outcome outcomes[] = {
    {"channel_finalize.json", "proposal.finalized", 1, 0, 0, 1},
    {"channel_force_finalize.json", "negotiation.force_finalized", 0, 1, 0, 1},
    {"channel_low_acceptance.json", "negotiation.failed", 0, 0, 1, 1},
    {"channel_silent_member.json", "proposal.finalized", 1, 0, 0, 1},
    {"channel_subchannel.json", "proposal.finalized", 1, 0, 0, 2},
    {"channel_chinese.json", "proposal.finalized", 1, 0, 0, 1},
};

} // namespace

TEST_CASE("every channel example ends as its expectations say in simulated time",
          "[integration][channel]") {
  for (const auto& x : outcomes) {
    auto result = run_parley("run " + examples + x.file + " --simulated-time");
    INFO(x.file << ":\n" << result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Contains(std::string{"\"type\":\""} + x.terminal_event));
    auto s = summary_of(result.output);
    CHECK(s.value("demands", -1) == 1);
    CHECK(s.value("demands_finalized", -1) == x.finalized);
    CHECK(s.value("demands_force_finalized", -1) == x.force_finalized);
    CHECK(s.value("demands_failed", -1) == x.failed);
    CHECK(s.value("demands_refused", -1) == 0);
    CHECK(s.value("channels", -1) == x.channels);
    CHECK(s.value("expectations_failed", -1) == 0);
    CHECK(s.value("errors", -1) == 0);
  }
}

TEST_CASE("a channel example gives the same output byte for byte in simulated time",
          "[integration][channel]") {
  for (auto name : {"channel_subchannel.json", "channel_silent_member.json"}) {
    auto first = run_parley("run " + examples + name + " --simulated-time");
    auto second = run_parley("run " + examples + name + " --simulated-time");
    REQUIRE(first.exit_code == 0);
    CHECK(first.output == second.output);
  }
}

TEST_CASE("a channel example with a silent member ends in real time",
          "[integration][channel]") {
  auto result = run_parley("run " + examples + "channel_silent_member.json", 30);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  auto s = summary_of(result.output);
  CHECK(s.value("demands_finalized", -1) == 1);
  CHECK(s.value("expectations_failed", -1) == 0);
}

TEST_CASE("an expectation that does not hold fails the run with a clear message",
          "[integration][channel]") {
  auto path = write_temp_file("channel_wrong_expectation.json", R"({
  "channel_agents": [
    {"profile": {"agent_id": "hall", "capabilities": ["venue"]}},
    {"profile": {"agent_id": "chef", "capabilities": ["catering"]}}
  ],
  "demands": [
    {"demand_id": "dinner", "raw_input": "a venue and catering for a dinner",
     "expect": {"status": "failed", "rounds": 3}}
  ]
})");
  auto result = run_parley("run " + path + " --simulated-time");
  INFO(result.output);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output,
             Contains("expectation failed: demand dinner: expected status "
                      "failed, got finalized"));
  CHECK_THAT(result.output, Contains("demand dinner: expected 3 round(s), got 1"));
  CHECK_THAT(result.output, Contains("2 expectation(s) of the scenario did not hold"));
  CHECK(summary_of(result.output).value("expectations_failed", -1) == 2);
}

TEST_CASE("a refused demand is reported as an error and fails its expectation",
          "[integration][channel]") {
  auto path = write_temp_file("channel_refused.json", R"({
  "channel_agents": [
    {"profile": {"agent_id": "away", "capabilities": ["venue"], "active": false}}
  ],
  "demands": [
    {"demand_id": "nobody", "raw_input": "a venue please",
     "expect": {"status": "finalized"}}
  ]
})");
  auto result = run_parley("run " + path + " --simulated-time");
  INFO(result.output);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Contains(R"("code":"E005")"));
  CHECK_THAT(result.output, Contains("demand nobody refused"));
  auto s = summary_of(result.output);
  CHECK(s.value("demands", -1) == 1);
  CHECK(s.value("demands_refused", -1) == 1);
  CHECK(s.value("errors", -1) == 1);
  CHECK(s.value("expectations_failed", -1) == 1);
}

} // namespace integration_channel_scenarios_test
