// `parley bench --store` and `parley run --store` write every record; `parley
// stats` reads them back.

#include <map>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/store_backends.hpp"

namespace integration_store_run_store_test {

using namespace parley::test;

TEST_CASE("bench --store commits every negotiation before its result line",
          "[integration]") {
  for_each_store("bench", [](const store_target& t) {
    INFO(t.kind);
    auto bench = run_parley("bench -n 200 --store '" + t.url + "'", 120);
    INFO(bench.output);
    REQUIRE(bench.exit_code == 0);
    CHECK_THAT(bench.output, Catch::Contains("accepted=200"));
    CHECK_THAT(bench.output, Catch::Contains("store=" + t.kind));
    auto stats = run_parley("stats --json --store '" + t.url + "'");
    INFO(stats.output);
    REQUIRE(stats.exit_code == 0);
    auto j = nlohmann::json::parse(stats.output);
    CHECK(j["current_24h"] == nlohmann::json::parse(
                                  R"([{"state":"accepted","count":200,"avg_age_seconds":)" +
                                  j["current_24h"][0]["avg_age_seconds"].dump() + "}]"));
    CHECK(j["rounds_by_outcome_7d"][0]["avg_rounds"] == 4.0);
    CHECK(j["success_by_agent_30d"].size() == 200);
    CHECK(j["expiration_7d"]["completed"] == 200);
  });
}

TEST_CASE("run --store writes the scenario's records with their stored states",
          "[integration]") {
  auto t = sqlite_target("run");
  auto run = run_parley("run --simulated-time " PARLEY_SOURCE_DIR
                        "/examples/scenarios/robustness.json --store '" +
                        t.url + "'");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  auto rows = t.exec("SELECT state, json_array_length(rounds), "
                     "json_extract(rounds, '$[0].message_id') IS NOT NULL "
                     "FROM negotiations ORDER BY created_at, id;");
  INFO(rows.output);
  CHECK(rows.exit_code == 0);
  CHECK_FALSE(rows.output.empty());
  auto verify = run_parley("db verify --store '" + t.url + "'");
  CHECK(verify.exit_code == 0);
}

TEST_CASE("run --store keeps the deal scores of agents with utilities for parley stats",
          "[integration]") {
  for_each_store("scores", [](const store_target& t) {
    INFO(t.kind);
    // Three negotiations; the rule client of the third has no utility. In
    // real time: the figures cover what was created in the last 7 days.
    auto run = run_parley("run " PARLEY_SOURCE_DIR
                          "/examples/scenarios/multi_issue.json --store '" +
                          t.url + "'");
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    auto text = run_parley("stats --store '" + t.url + "'");
    INFO(text.output);
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(text.output, Catch::Contains("deal scores (2 scored)  mean utility "));
    auto stats = run_parley("stats --json --store '" + t.url + "'");
    REQUIRE(stats.exit_code == 0);
    auto scores = nlohmann::json::parse(stats.output)["outcomes_7d"]["scores"];
    CHECK(scores["negotiations"] == 2);
    auto welfare = scores["mean_welfare"].get<double>();
    CHECK(welfare > 0.0);
    CHECK(welfare <= 2.0);
  });
}

TEST_CASE(
    "parley stats on a store without the deal scores' migration says how to add it",
    "[integration]") {
  auto t = sqlite_target("stats_old");
  REQUIRE(run_parley("db migrate --store '" + t.url + "'").exit_code == 0);
  REQUIRE(run_parley("db rollback --store '" + t.url + "'").exit_code == 0); // 009
  REQUIRE(run_parley("db rollback --store '" + t.url + "'").exit_code == 0); // 008
  REQUIRE(run_parley("stats --store '" + t.url + "'").exit_code == 0);
  REQUIRE(run_parley("db rollback --store '" + t.url + "'").exit_code == 0); // 007
  auto stats = run_parley("stats --store '" + t.url + "'");
  CHECK(stats.exit_code == 1);
  CHECK_THAT(stats.output,
             Catch::Contains("has migrations up to 6; the figures need migration 007 "
                             "(deal scores): `parley db migrate --store"));
}

namespace {

/// What the run's output says each negotiation ended as, one line per
/// negotiation in id order: id|stored state|rounds|last round's message id.
std::string ends_in(const std::string& output) {
  const std::map<std::string, std::string> states{{"negotiation.agreed", "accepted"},
                                                  {"negotiation.rejected", "rejected"},
                                                  {"negotiation.expired", "expired"}};
  std::map<std::string, std::string> ended;
  std::istringstream lines{output};
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '{')
      continue;
    auto j = nlohmann::json::parse(line);
    auto state = states.find(j.value("type", ""));
    if (state == states.end())
      continue;
    const auto& record = j["negotiation"];
    ended[record["id"].get<std::string>()] =
        state->second + "|" + std::to_string(record["rounds"].size()) + "|" +
        record["rounds"].back()["message_id"].get<std::string>();
  }
  std::string result;
  for (const auto& [id, row] : ended)
    result += id + "|" + row + "\n";
  return result;
}

} // namespace

TEST_CASE("run --store keeps each negotiation as the run ended it, short or long",
          "[integration]") {
  // The store of a run settles by default (a negotiation younger than a
  // second is written at its end, an older one announced first), or not at
  // all: these scenarios end negotiations at once, after 0.6 s, and after 1.5
  // to 2.5 s of their simulated time.
  for (std::string settle_ms : {"1000", "0"}) {
    for (std::string scenario :
         {"freelance_deal", "timeouts", "scripted_counter", "robustness"}) {
      INFO(scenario << ", store.settle_ms " << settle_ms);
      auto t = sqlite_target("settle-" + settle_ms + "-" + scenario);
      auto run =
          run_command("env PARLEY_STORE_SETTLE_MS=" + settle_ms +
                      " " PARLEY_BINARY " run --simulated-time " PARLEY_SOURCE_DIR
                      "/examples/scenarios/" +
                      scenario + ".json --store '" + t.url + "'");
      INFO(run.output);
      REQUIRE(run.exit_code == 0);
      auto expected = ends_in(run.output);
      REQUIRE_FALSE(expected.empty());
      auto rows = t.exec("SELECT id, state, json_array_length(rounds), "
                         "json_extract(rounds, '$[#-1].message_id') "
                         "FROM negotiations ORDER BY id;");
      REQUIRE(rows.exit_code == 0);
      CHECK(rows.output == expected);
    }
  }
}

} // namespace integration_store_run_store_test
