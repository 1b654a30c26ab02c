// A real-time `parley run` always ends with its summary: the races that used
// to leave it waiting forever (a negotiation that ends before its start is
// confirmed), played many times over, and every example scenario.
#include <catch2/catch.hpp>

#include <string>

#include "support/process.hpp"

namespace integration_run_ends_test {

using parley::test::run_parley;
using parley::test::write_temp_file;

namespace {

const std::string examples = std::string{PARLEY_SOURCE_DIR} + "/examples/scenarios/";

/// How often each race is played: a run takes a few tens of milliseconds.
constexpr int rounds = 25;

/// Seconds one run may take before it counts as hung.
constexpr int limit_s = 10;

/// Two scripted agents in one room; `a` proposes 1000 to `b` at once, who
/// answers with `b_script`; `a` answers with `a_script`; `inject` is spliced
/// in as the scenario's injections.
std::string race(const std::string& a_script, const std::string& b_script,
                 const std::string& inject = "[]") {
  return R"({
  "agents": [
    {"id": "a", "brain": "script", "script": )" +
         a_script + R"(},
    {"id": "b", "brain": "script", "script": )" +
         b_script + R"(}
  ],
  "rooms": [{"id": "r", "participants": ["a", "b"]}],
  "negotiations": [{"room": "r", "at_ms": 0, "initiator": "a", "responder": "b",
                    "proposal": {"amount": 1000}}],
  "inject": )" +
         inject + "\n}";
}

/// The last non-empty line of `text`.
std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of('\n');
  auto begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - begin);
}

/// Plays `scenario` in real time `rounds` times; each run must end, in time,
/// with `summary` as its last line.
void ends_every_time(const std::string& name, const std::string& scenario,
                     const std::string& summary) {
  auto path = write_temp_file(name, scenario);
  for (int i = 0; i < rounds; ++i) {
    auto result = run_parley("run " + path, limit_s);
    INFO(name << " run " << i << ":\n" << result.output);
    REQUIRE(result.exit_code == 0);
    REQUIRE(last_line(result.output) == summary);
  }
}

} // namespace

TEST_CASE("a real-time run ends when the responder accepts at once", "[integration]") {
  ends_every_time("accept.json", race("[]", R"([{"action": "accept"}])"),
                  R"({"accepted":1,"errors":0,"expired":0,"negotiations":1,)"
                  R"("rejected":0,"type":"summary","warnings":0})");
}

TEST_CASE("a real-time run ends when the responder rejects at once", "[integration]") {
  ends_every_time("reject.json", race("[]", R"([{"action": "reject"}])"),
                  R"({"accepted":0,"errors":0,"expired":0,"negotiations":1,)"
                  R"("rejected":1,"type":"summary","warnings":0})");
}

TEST_CASE("a real-time run ends after an immediate counter and accept",
          "[integration]") {
  ends_every_time("counter_accept.json",
                  race(R"([{"action": "accept"}])",
                       R"([{"action": "counter", "proposal": {"amount": 900}}])"),
                  R"({"accepted":1,"errors":0,"expired":0,"negotiations":1,)"
                  R"("rejected":0,"type":"summary","warnings":0})");
}

TEST_CASE("a real-time run ends when an injection meets a negotiation that ended",
          "[integration]") {
  // The injection reaches the room at the same moment as the start: whether
  // the negotiation is still open or already agreed, the run waits for the
  // injection's outcome (a refusal or a warning), then ends.
  auto path = write_temp_file(
      "inject_race.json",
      race("[]", R"([{"action": "accept"}])",
           R"([{"at_ms": 0, "room": "r", "from": "b", "type": "agent_reject",
                "message_id": "late-1"}])"));
  for (int i = 0; i < rounds; ++i) {
    auto result = run_parley("run " + path, limit_s);
    INFO("run " << i << ":\n" << result.output);
    REQUIRE(result.exit_code == 0);
    auto summary = last_line(result.output);
    REQUIRE(summary.find(R"("type":"summary")") != std::string::npos);
    CHECK(summary.find(R"("negotiations":1)") != std::string::npos);
    // The injected reject either ended the negotiation or was turned away
    // with a warning naming it.
    CHECK((result.output.find("late-1") != std::string::npos ||
           summary.find(R"("rejected":1)") != std::string::npos));
  }
}

TEST_CASE("every example scenario ends in real time with its summary",
          "[integration]") {
  for (auto name : {"freelance_deal.json", "robustness.json", "scripted_counter.json",
                    "task_consensus.json", "timeouts.json"}) {
    auto result = run_parley("run " + examples + name, 30);
    INFO(name << ":\n" << result.output);
    REQUIRE(result.exit_code == 0);
    CHECK(last_line(result.output).find(R"("type":"summary")") != std::string::npos);
  }
}

TEST_CASE("a vote and a bid after their ballot and auction resolved are refused before "
          "the run ends",
          "[integration]") {
  // The ballot closes at 500 ms without a majority and the auction without a
  // bid; bob's vote and ann's bid come at 800 ms, after both actors went back
  // to their pools.
  auto path = write_temp_file("late_vote.json", R"({
  "agents": [{"id": "ann", "brain": "script", "script": []},
             {"id": "bob", "brain": "script", "script": []}],
  "rooms": [],
  "ballots": [{"id": "ship", "at_ms": 0, "topic": "Ship it?", "strategy": "majority",
               "voters": ["ann", "bob"], "window_ms": 500,
               "votes": [{"at_ms": 100, "voter": "ann", "option": "approve"},
                         {"at_ms": 800, "voter": "bob", "option": "approve"}]}],
  "auctions": [{"id": "build", "at_ms": 0, "task": "backend", "invited": ["ann"],
                "window_ms": 500,
                "bids": [{"at_ms": 800, "bidder": "ann", "capability": 0.9,
                          "load": 0.1, "estimated_duration_ms": 1000}]}]
})");
  for (auto options : {" --simulated-time", ""}) {
    auto result = run_parley("run " + path + options, limit_s);
    INFO("run" << options << ":\n" << result.output);
    REQUIRE(result.exit_code == 0);
    CHECK(result.output.find(R"("code":"E024","message":"ship is already resolved")") !=
          std::string::npos);
    CHECK(
        result.output.find(R"("code":"E024","message":"build is already resolved")") !=
        std::string::npos);
    CHECK(last_line(result.output).find(R"("errors":2)") != std::string::npos);
  }
}

} // namespace integration_run_ends_test
