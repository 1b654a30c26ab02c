// Idempotent moves end to end (docs/api.md, Idempotency): a replayed message
// id is E011 with the move's result before and after the end, before and
// after a kill -9 and restart of `parley serve`; a message id reused for a
// different move is E035 and changes nothing.

#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/process.hpp"

namespace integration_idempotency_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::background_process;
using parley::test::counter;
using parley::test::openapi_contract;
using parley::test::proposal;
using parley::test::serve_process;
using parley::test::simple_move;

namespace {

std::string messages_of(const std::string& id) {
  return "/api/v1/negotiations/" + id + "/messages";
}

/// Registers alice and bob (external) and opens a negotiation between them,
/// with `max_rounds` when it is not zero.
std::string open_negotiation(api_client& api, int max_rounds = 0) {
  for (const auto* id : {"alice", "bob"})
    REQUIRE(api.post("/api/v1/agents", {{"id", id}, {"brain", {{"kind", "external"}}}})
                .status == 201);
  json body{
      {"initiator", "alice"}, {"responder", "bob"}, {"proposal", proposal(10000)}};
  if (max_rounds != 0)
    body["max_rounds"] = max_rounds;
  auto created = api.post("/api/v1/negotiations", body);
  INFO(created.body.dump());
  REQUIRE(created.status == 201);
  return created.body["id"].get<std::string>();
}

/// Checks that `a` is the E011 answer to a replay of `message_id`, with
/// `result` (the first answer's record).
void check_replay(const api_client::answer& a, const std::string& message_id,
                  const json& result) {
  INFO(a.body.dump());
  CHECK(a.status == 200);
  CHECK(a.body["error_code"] == "E011");
  CHECK(a.body["details"]["message_id"] == message_id);
  CHECK(a.body["details"]["result"] == result);
}

/// Checks that `a` refuses the reuse of `message_id` with E035, naming what
/// differs.
void check_reused(const api_client::answer& a, const std::string& message_id,
                  const std::vector<std::string>& differs) {
  INFO(a.body.dump());
  CHECK(a.status == 422);
  CHECK(a.body["error_code"] == "E035");
  CHECK(a.body["details"]["message_id"] == message_id);
  CHECK(a.body["details"]["differs"] == json(differs));
}

/// Kills `serve` with SIGKILL and starts `parley serve` again over its store;
/// returns the new process (its port through wait_until_serving).
background_process kill_and_restart(serve_process& serve) {
  serve.process.signal(SIGKILL);
  REQUIRE(serve.process.wait_exit(5s));
  return background_process{
      {PARLEY_BINARY, "serve", "--port", "0", "--store", serve.store.path()}};
}

} // namespace

TEST_CASE("a replayed accept is E011 with the final record after the end, and after "
          "kill -9 and a restart",
          "[integration][idempotency]") {
  serve_process serve;
  openapi_contract contract;
  std::string id;
  json countered;
  json accepted;
  {
    api_client api{serve.port, contract};
    id = open_negotiation(api);
    countered = api.post(messages_of(id), counter("b1", "bob", 8500)).body;
    REQUIRE(countered["status"] == "countering");
    auto answer = api.post(messages_of(id), simple_move("a1", "alice", "accept"));
    REQUIRE(answer.status == 200);
    accepted = answer.body;
    REQUIRE(accepted["status"] == "accepted");
    check_replay(api.post(messages_of(id), simple_move("a1", "alice", "accept")), "a1",
                 accepted);
  }
  auto again = kill_and_restart(serve);
  api_client api{parley::test::wait_until_serving(again), contract};
  // The client that lost the accept's answer learns that its move won: the
  // final record, whose last round is its accept.
  auto replay = api.post(messages_of(id), simple_move("a1", "alice", "accept"));
  check_replay(replay, "a1", accepted);
  CHECK(replay.body["details"]["result"]["rounds"].back()["message_id"] == "a1");
  // An older move: the record as it was right after it.
  check_replay(api.post(messages_of(id), counter("b1", "bob", 8500)), "b1", countered);
  check_reused(api.post(messages_of(id), simple_move("a1", "bob", "accept")), "a1",
               {"from"});
  CHECK(api.get("/api/v1/negotiations/" + id).body == accepted);
}

TEST_CASE("a message id reused with another body or by the other party is E035 and "
          "changes nothing",
          "[integration][idempotency]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  auto id = open_negotiation(api);
  auto countered = api.post(messages_of(id), counter("b1", "bob", 8500));
  REQUIRE(countered.status == 200);
  check_reused(api.post(messages_of(id), counter("b1", "bob", 8000)), "b1",
               {"proposal.amount"});
  auto other_reason = counter("b1", "bob", 8500);
  other_reason["reason"] = "final offer";
  other_reason["proposal"]["currency"] = "EUR";
  check_reused(api.post(messages_of(id), other_reason), "b1",
               {"proposal.currency", "reason"});
  // Both parties share one id space per negotiation: alice may not take it.
  check_reused(api.post(messages_of(id), counter("b1", "alice", 8500)), "b1", {"from"});
  check_reused(api.post(messages_of(id), simple_move("b1", "alice", "accept")), "b1",
               {"from", "action", "proposal", "reason"});
  CHECK(api.get("/api/v1/negotiations/" + id).body == countered.body);
  // The same move again is still its replay.
  check_replay(api.post(messages_of(id), counter("b1", "bob", 8500)), "b1",
               countered.body);
  auto turns = api.get("/api/v1/agents/alice/turns");
  REQUIRE(turns.body["negotiations"].size() == 1);
  CHECK(turns.body["negotiations"][0] == countered.body);
}

TEST_CASE("the counter past the round limit keeps its message id: its replay is E011 "
          "with the expired record, also after kill -9 and a restart",
          "[integration][idempotency]") {
  serve_process serve;
  openapi_contract contract;
  std::string id;
  json expired;
  {
    api_client api{serve.port, contract};
    id = open_negotiation(api, 2);
    REQUIRE(api.post(messages_of(id), counter("b1", "bob", 8500)).status == 200);
    auto answer = api.post(messages_of(id), counter("a1", "alice", 9500));
    INFO(answer.body.dump());
    REQUIRE(answer.status == 200);
    expired = answer.body;
    CHECK(expired["status"] == "expired");
    CHECK(expired["status_reason"] == "Round limit reached — 2 rounds");
    // Kept as the last round, not taken up as the current proposal.
    REQUIRE(expired["rounds"].size() == 3);
    CHECK(expired["rounds"][2]["message_id"] == "a1");
    CHECK(expired["rounds"][2]["action"] == "counter");
    CHECK(expired["current_proposal"]["amount"] == 8500);
    check_replay(api.post(messages_of(id), counter("a1", "alice", 9500)), "a1",
                 expired);
    check_reused(api.post(messages_of(id), counter("a1", "alice", 9000)), "a1",
                 {"proposal.amount"});
  }
  auto again = kill_and_restart(serve);
  api_client api{parley::test::wait_until_serving(again), contract};
  check_replay(api.post(messages_of(id), counter("a1", "alice", 9500)), "a1", expired);
  CHECK(api.get("/api/v1/negotiations/" + id).body == expired);
}

} // namespace integration_idempotency_test
