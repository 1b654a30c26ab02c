#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "support/process.hpp"

namespace integration_cli_test {

using Catch::Matchers::Contains;
using parley::test::run_parley;
using parley::test::write_temp_file;

namespace {

const std::string examples = std::string{PARLEY_SOURCE_DIR} + "/examples/scenarios/";

/// The last non-empty line of `text`.
std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of('\n');
  auto begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - begin);
}

/// A valid two-agent scenario with `patch` spliced into its negotiation.
std::string scenario_with(const std::string& negotiation) {
  return R"({
  "agents": [
    {"id": "a", "brain": "script", "script": [{"action": "accept"}]},
    {"id": "b", "brain": "script", "script": [{"action": "accept"}]}
  ],
  "rooms": [{"id": "r", "participants": ["a", "b"]}],
  "negotiations": [)" +
         negotiation + R"(]
})";
}

} // namespace

TEST_CASE("parley demo prints an agreement", "[integration]") {
  auto result = run_parley("demo");
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("AGREED"));
  CHECK_THAT(result.output, Contains("1 accepted"));
}

TEST_CASE("parley --version prints the project's version", "[integration]") {
  // PARLEY_EXPECTED_VERSION is project(VERSION) of the top CMakeLists.txt.
  auto result = run_parley("--version");
  CHECK(result.exit_code == 0);
  CHECK(result.output == std::string{"parley "} + PARLEY_EXPECTED_VERSION + "\n");
}

TEST_CASE("parley run writes JSON events and a summary line", "[integration]") {
  auto result =
      run_parley("run " + examples + "scripted_counter.json --simulated-time");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains(R"("type":"negotiation.started")"));
  CHECK_THAT(result.output, Contains(R"("type":"negotiation.agreed")"));
  CHECK(last_line(result.output) ==
        R"({"accepted":1,"errors":0,"expired":0,"negotiations":1,"rejected":0,)"
        R"("type":"summary","warnings":0})");
}

TEST_CASE("a rule seller is not talked down to £1.00", "[integration]") {
  // A scripted buyer opens a website redesign at £1.00 and repeats it; the
  // seller counters at its floor and, unable to move, rejects
  // (docs/protocols/bilateral.md, "Reservation prices").
  auto result = run_parley("run " + examples + "lowball_buyer.json --simulated-time");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("raised to my floor of £100.00"));
  CHECK_THAT(result.output, Contains("£1.00 is below my floor of £100.00"));
  CHECK_THAT(result.output, !Contains(R"("type":"negotiation.agreed")"));
  CHECK(last_line(result.output) ==
        R"({"accepted":0,"errors":0,"expired":0,"negotiations":1,"rejected":1,)"
        R"("type":"summary","warnings":0})");
}

TEST_CASE("strategy brains concede by their schedules", "[integration]") {
  auto result = run_parley("run " + examples + "strategies.json --simulated-time");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("Countering at £347.70: conceder strategy, target "
                                     "utility 0.28 in round 1 of 5"));
  CHECK_THAT(result.output, Contains("hardliner strategy: utility 0.00 is below my "
                                     "target of 1.00"));
  CHECK(last_line(result.output) ==
        R"({"accepted":2,"errors":0,"expired":0,"negotiations":3,"rejected":1,)"
        R"("type":"summary","warnings":0})");
}

TEST_CASE("strategy brains with utilities move the terms as well as the price",
          "[integration]") {
  auto result = run_parley("run " + examples + "multi_issue.json --simulated-time");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output,
             Contains(R"(Countering at £1,880.00 with {\"deadline_days\":30,)"
                      R"(\"revisions\":1}: linear strategy)"));
  CHECK_THAT(result.output, Contains("tit_for_tat strategy"));
  CHECK_THAT(result.output,
             Contains("micro strategy: utility 0.73 is below my target of 0.91"));
  CHECK(last_line(result.output) ==
        R"({"accepted":2,"errors":0,"expired":0,"negotiations":3,"rejected":1,)"
        R"("type":"summary","warnings":0})");
}

TEST_CASE("simulated time with the same seed gives the same output byte for byte",
          "[integration]") {
  for (auto name : {"robustness.json", "timeouts.json", "freelance_deal.json"}) {
    auto first = run_parley("run " + examples + name + " --simulated-time --seed 42");
    auto second = run_parley("run " + examples + name + " --simulated-time --seed 42");
    REQUIRE(first.exit_code == 0);
    CHECK(first.output == second.output);
  }
  auto other =
      run_parley("run " + examples + "timeouts.json --simulated-time --seed 43");
  auto first =
      run_parley("run " + examples + "timeouts.json --simulated-time --seed 42");
  CHECK(other.output != first.output);
}

TEST_CASE("simulated time runs a 120 s expiry instantly", "[integration]") {
  auto path = write_temp_file("silent.json", R"({
  "agents": [
    {"id": "a", "brain": "script", "script": []},
    {"id": "b", "brain": "script", "script": [{"action": "counter", "proposal": {"amount": 900}, "delay_ms": 25000},
                                              {"action": "silent"}]}
  ],
  "rooms": [{"id": "r", "participants": ["a", "b"]}],
  "negotiations": [{"room": "r", "at_ms": 0, "initiator": "a", "responder": "b",
                    "proposal": {"amount": 1000}}]
})");
  // b counters at 25 s, then a never answers: the round timer reset at 25 s
  // expires it at 55 s.
  auto result = run_parley("run " + path + " --simulated-time", 20);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains(R"("t_ms":55000,"type":"negotiation.expired")"));
  CHECK_THAT(last_line(result.output), Contains(R"("expired":1)"));
}

TEST_CASE("a malformed scenario is refused with the problem and its location",
          "[integration]") {
  SECTION("bad JSON") {
    auto path =
        write_temp_file("bad.json", "{\n  \"agents\": [\n    {\"id\": \"a\",}\n");
    auto result = run_parley("run " + path);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Contains("line 3, column"));
    CHECK_THAT(result.output, Contains("bad.json"));
  }
  SECTION("unknown agent") {
    auto path = write_temp_file("unknown.json", R"({
  "agents": [{"id": "a", "brain": "rule"}, {"id": "b", "brain": "rule"}],
  "rooms": [{"id": "r", "participants": ["a", "zed"]}]
})");
    auto result = run_parley("run " + path);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Contains("rooms[0].participants"));
    CHECK_THAT(result.output, Contains("zed"));
  }
  SECTION("negative amount") {
    auto path = write_temp_file(
        "negative.json",
        scenario_with(R"({"room": "r", "initiator": "a", "responder": "b",
                        "proposal": {"amount": -100}})"));
    auto result = run_parley("run " + path);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Contains("negotiations[0].proposal.amount"));
    CHECK_THAT(result.output, Contains("positive"));
  }
  SECTION("wrong type") {
    auto path = write_temp_file(
        "types.json", scenario_with(R"({"room": "r", "initiator": "a", "responder": "b",
                        "at_ms": "soon", "proposal": {"amount": 100}})"));
    auto result = run_parley("run " + path);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Contains("negotiations[0].at_ms"));
    CHECK_THAT(result.output, Contains("expected an integer"));
  }
  SECTION("missing file") {
    auto result = run_parley("run /nonexistent/scenario.json");
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Contains("/nonexistent/scenario.json"));
  }
}

TEST_CASE("configuration is validated with a clear reason", "[integration]") {
  auto path = write_temp_file("config.json", R"({"negotiation": {"max_rounds": 25}})");
  auto result = run_parley("--config " + path + " run " + examples +
                           "scripted_counter.json --simulated-time");
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("max_rounds must be within 1..20, got 25"));
}

TEST_CASE("the environment overrides the scenario's configuration", "[integration]") {
  // timeouts.json sets max_rounds 3; with 2 its haggle ends a round earlier.
  auto result = parley::test::run_command("env PARLEY_NEGOTIATION_MAX_ROUNDS=2 " +
                                          std::string{PARLEY_BINARY} + " run " +
                                          examples + "timeouts.json --simulated-time");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("Round limit reached — 2 rounds"));
}

TEST_CASE("every command explains itself with --help", "[integration]") {
  auto top = run_parley("--help");
  CHECK(top.exit_code == 0);
  CHECK_THAT(top.output, Contains("demo"));
  CHECK_THAT(top.output, Contains("run"));
  auto run = run_parley("run --help");
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.output, Contains("--simulated-time"));
  CHECK_THAT(run.output, Contains("--seed"));
  auto demo = run_parley("demo --help");
  CHECK(demo.exit_code == 0);
  CHECK_THAT(demo.output, Contains("--json"));
  auto wrong = run_parley("dance");
  CHECK(wrong.exit_code == 2);
  auto misplaced = run_parley("bench --workload ballots -n 10 --remote 127.0.0.1:9");
  CHECK(misplaced.exit_code == 2);
  CHECK_THAT(misplaced.output, Contains("ballots workload has none"));
}

TEST_CASE("the consensus scenario runs twice identically and writes its audit log",
          "[integration]") {
  auto audit1 = write_temp_file("audit1.jsonl", "");
  auto audit2 = write_temp_file("audit2.jsonl", "");
  auto run = [&](const std::string& audit) {
    return run_parley("run " + examples +
                      "task_consensus.json --simulated-time --seed 7 --audit " + audit);
  };
  auto first = run(audit1);
  auto second = run(audit2);
  REQUIRE(first.exit_code == 0);
  CHECK(first.output == second.output);
  CHECK_THAT(first.output, Contains(R"("type":"negotiation.result")"));
  CHECK_THAT(first.output, Contains(R"("type":"auction.result")"));
  CHECK_THAT(first.output, Contains(R"("code":"E022")"));
  CHECK_THAT(last_line(first.output), Contains(R"("ballots":2,"ballots_approved":2)"));
  auto cat1 = parley::test::run_command("cat " + audit1);
  auto cat2 = parley::test::run_command("cat " + audit2);
  CHECK(cat1.output == cat2.output);
  CHECK_THAT(cat1.output, Contains(R"({"event":)"));
  CHECK_THAT(cat1.output, Contains(R"("seq":22,)"));
  CHECK_THAT(cat1.output, Contains(R"("topic":"error")"));
}

TEST_CASE("parley bench --workload ballots verifies every outcome", "[integration]") {
  auto result = run_parley("bench --workload ballots -n 200");
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("BALLOTS N=200 "));
  CHECK_THAT(result.output, Contains(" wrong=0"));
}

TEST_CASE("parley bench W1 verifies every negotiation and reports its own costs",
          "[integration]") {
  auto result = run_parley("bench -n 2000");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("W1 N=2000 "));
  CHECK_THAT(result.output, Contains(" accepted=2000 "));
  for (auto field : {" setup_s=", " cpu_s=", " cpu_us_per_neg=", " process_s=",
                     " peak_rss_kb=", " rtt_p99_ms="})
    CHECK_THAT(result.output, Contains(field));
}

TEST_CASE("parley bench W2 expires every negotiation after its round timeout",
          "[integration]") {
  // W2's round timeout is one second of real time: a few hundred suffice.
  auto result = run_parley("bench --workload w2 -n 300 --json");
  REQUIRE(result.exit_code == 0);
  auto j = nlohmann::json::parse(last_line(result.output));
  CHECK(j.at("expired") == 300);
  CHECK(j.at("ok") == true);
  CHECK(j.at("p99_late_ms").get<double>() >= 0.0);
  CHECK(j.at("process_s").get<double>() >= 1.0);
}

} // namespace integration_cli_test
