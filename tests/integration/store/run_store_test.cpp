// `parley bench --store` and `parley run --store` write every record; `parley
// stats` reads them back.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/store_backends.hpp"

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

TEST_CASE("run --store writes the scenario's records with their seed 003 states",
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
