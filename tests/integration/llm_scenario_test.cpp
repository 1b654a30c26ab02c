#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/fake_llm.hpp"
#include "support/process.hpp"

namespace integration_llm_scenario_test {

using nlohmann::json;
using parley::test::fake_llm;

namespace {

json tool_use(const std::string& name, json input) {
  return {{"content",
           {{{"type", "tool_use"}, {"id", "t"}, {"name", name}, {"input", input}}}},
          {"stop_reason", "tool_use"}};
}

json text(const std::string& t) {
  return {{"content", {{{"type", "text"}, {"text", t}}}}, {"stop_reason", "end_turn"}};
}

json when(const std::string& match, json response) {
  response["match"] = match;
  return response;
}

} // namespace

TEST_CASE("parley run plays a scenario with an LLM agent and transcripts",
          "[integration]") {
  fake_llm server{
      json{{"responses",
            {when("NEGOTIATION TRIGGERED",
                  tool_use("analyze_and_propose",
                           {{"amount", 80000}, {"description", "Logo design"}})),
             when("Proposal sent", text("I proposed £800.00.")),
             when("COUNTER-PROPOSAL from bob",
                  tool_use("evaluate_proposal",
                           {{"decision", "accept"}, {"reason", "Within budget"}})),
             when("Decision recorded", text("Accepted."))}},
           {"default", text("Nothing to add.")}}
          .dump()};
  auto scenario =
      json{{"config", {{"llm", {{"batch_window_ms", 100}}}}},
           {"agents",
            {{{"id", "alice"},
              {"role", "client"},
              {"brain", "llm"},
              {"provider", "anthropic"},
              {"model", "fake"},
              {"endpoint", server.base_url()}},
             {{"id", "bob"}, {"role", "freelancer"}, {"brain", "rule"}}}},
           {"rooms", {{{"id", "studio"}, {"participants", {"alice", "bob"}}}}},
           {"transcripts",
            {{{"room", "studio"},
              {"speaker", "alice"},
              {"text", "Can you do the logo for £800?"}}}}};
  auto path = parley::test::write_temp_file("llm_scenario.json", scenario.dump());
  auto r = parley::test::run_parley("run " + path, 60);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("\"type\":\"negotiation.started\"") != std::string::npos);
  CHECK(r.output.find("\"type\":\"agent.decision\"") != std::string::npos);
  CHECK(r.output.find("\"type\":\"negotiation.agreed\"") != std::string::npos);
  CHECK(r.output.find(R"("accepted":1)") != std::string::npos);
  CHECK(r.output.find("\"fallback\":true") == std::string::npos);
}

TEST_CASE("LLM agents need real time", "[integration]") {
  auto path = parley::test::write_temp_file(
      "llm_simulated.json",
      R"({"agents":[{"id":"a","brain":"llm"},{"id":"b","brain":"rule"}],
          "rooms":[{"id":"r","participants":["a","b"]}]})");
  auto r = parley::test::run_parley("run " + path + " --simulated-time", 30);
  CHECK(r.exit_code != 0);
  CHECK(r.output.find("without --simulated-time") != std::string::npos);
}

} // namespace integration_llm_scenario_test
