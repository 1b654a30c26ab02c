// Crash recovery end to end: a client drives negotiations over the API while
// `parley serve` is killed with SIGKILL at random points and started again
// over the same store. Every move answered 2xx must be in the record, no
// negotiation may advance twice, and a deadline that passed while the
// process was down must have expired its negotiation.

#include <chrono>
#include <csignal>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"
#include "support/postgres_cluster.hpp"
#include "support/temp_store.hpp"

namespace integration_recovery_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::background_process;
using parley::test::openapi_contract;
using parley::test::proposal;

namespace {

constexpr int round_timeout_ms = 1500;
constexpr const char* hosted = "rule-r";

/// Where negotiations run: a pair of agents and, optionally, a stored room.
struct lane {
  std::string initiator;
  std::string responder;
  std::string room_id;
  /// Its open negotiation, if any.
  std::string open;
};

/// A move sent when the process was killed: its outcome is unknown.
struct in_flight_move {
  std::string negotiation_id;
  json body;
};

std::string messages_of(const std::string& id) {
  return "/api/v1/negotiations/" + id + "/messages";
}

bool is_open(const json& record) {
  auto status = record["status"].get<std::string>();
  return status == "proposed" || status == "countering";
}

/// Whose move it is in an open record.
std::string to_move(const json& record) {
  return record["rounds"].back()["from_agent"] == record["initiator"]
             ? record["responder"].get<std::string>()
             : record["initiator"].get<std::string>();
}

/// `parley serve` over `store` with round deadlines of `round_ms`, creating
/// the store when `create` (its first start).
std::vector<std::string> serve_argv(const std::string& store, int round_ms,
                                    bool create = false) {
  auto timeout = "PARLEY_NEGOTIATION_ROUND_TIMEOUT_MS=" + std::to_string(round_ms);
  std::vector<std::string> argv{"/usr/bin/env", timeout, PARLEY_BINARY, "serve",
                                "--port",       "0",     "--store",     store};
  if (create)
    argv.emplace_back("--create-store");
  return argv;
}

/// A client that keeps driving negotiations across restarts of serve.
class driver {
public:
  driver(std::string store, std::uint32_t seed) : store_(std::move(store)), rng_(seed) {
    lanes_ = {{"ext-1", "ext-2", {}, {}},
              {"ext-3", "ext-4", {}, {}},
              {"ext-5", hosted, {}, {}},
              {"ext-2", "ext-3", "trio", {}}};
  }

  /// Starts serve over the store (creating it the first time) and waits
  /// until it recovered.
  void start() {
    process_.emplace(serve_argv(store_, round_timeout_ms, !started_));
    started_ = true;
    port_ = parley::test::wait_until_serving(*process_);
    api_.emplace(port_, contract_);
  }

  /// Registers the agents and the room once, on the first start.
  void register_world() {
    for (const auto* id : {"ext-1", "ext-2", "ext-3", "ext-4", "ext-5"})
      REQUIRE(api_->post("/api/v1/agents", {{"id", id}, {"brain", {{"kind", "external"}}}})
                  .status == 201);
    REQUIRE(api_->post("/api/v1/agents", {{"id", hosted}, {"brain", {{"kind", "rule"}}}})
                .status == 201);
    REQUIRE(api_->post("/api/v1/rooms", {{"id", "trio"}, {"members", {"ext-2", "ext-3"}}})
                .status == 201);
  }

  /// After a restart: the agents and the room are back, the move in flight
  /// at the kill is retried (it must be applied exactly once), and each
  /// lane's negotiation is read again.
  void after_restart() {
    for (const auto* id : {"ext-1", "ext-5", hosted})
      CHECK(api_->get(std::string{"/api/v1/agents/"} + id).status == 200);
    CHECK(api_->get("/api/v1/rooms/trio").status == 200);
    if (in_flight_) {
      auto a = api_->post(messages_of(in_flight_->negotiation_id), in_flight_->body);
      INFO(a.body.dump());
      auto code = a.body.value("error_code", "");
      CHECK((a.status == 200 || code == "E011" || code == "E016"));
      if (a.status == 200 || code == "E011")
        acknowledge(in_flight_->body["message_id"], in_flight_->negotiation_id);
      ++(code == "E011" ? tally_.applied_before_kill : tally_.retried);
      in_flight_.reset();
    }
    for (auto& l : lanes_)
      if (!l.open.empty()) {
        auto r = record(l.open);
        if (!is_open(r))
          l.open.clear();
        else if (to_move(r) == hosted)
          hosted_turns_.insert(l.open);
      }
  }

  /// Opens negotiations and makes external agents' moves, `steps` times.
  void drive(int steps) {
    for (int i = 0; i < steps; ++i) {
      auto& l = lanes_[pick(lanes_.size())];
      if (l.open.empty()) {
        open(l);
        continue;
      }
      auto r = record(l.open);
      if (!is_open(r)) {
        l.open.clear();
        continue;
      }
      auto who = to_move(r);
      if (who == hosted)
        continue;
      auto body = next_move(who, r);
      auto a = api_->post(messages_of(l.open), body);
      INFO(a.body.dump());
      if (a.status == 200) {
        acknowledge(body["message_id"], l.open);
        continue;
      }
      // Its round deadline may have passed since it was read.
      CHECK(a.body.value("error_code", "") == "E016");
      l.open.clear();
    }
  }

  /// Sends one more move and kills the process with SIGKILL while it may be
  /// anywhere between the request and its commit.
  void crash() {
    std::optional<in_flight_move> move;
    for (auto& l : lanes_) {
      if (l.open.empty())
        continue;
      auto r = record(l.open);
      if (is_open(r) && to_move(r) != hosted) {
        move = in_flight_move{l.open, next_move(to_move(r), r)};
        break;
      }
    }
    std::thread client;
    if (move)
      client = std::thread{[port = port_, m = *move] {
        httplib::Client raw{"127.0.0.1", port};
        raw.set_read_timeout(5);
        raw.Post(messages_of(m.negotiation_id).c_str(), m.body.dump(), "application/json");
      }};
    // A random kill point: before, during or after the move's commit.
    std::this_thread::sleep_for(std::chrono::microseconds(pick(4000)));
    process_->signal(SIGKILL);
    if (client.joinable())
      client.join();
    REQUIRE(process_->wait_exit(5s));
    in_flight_ = move;
    api_.reset();
  }

  /// Lets every round deadline of the open negotiations pass while serve is
  /// down; returns them (each must be expired after the restart).
  std::vector<std::string> stay_down_past_deadlines() {
    std::vector<std::string> open;
    for (const auto& l : lanes_)
      if (!l.open.empty())
        open.push_back(l.open);
    std::this_thread::sleep_for(std::chrono::milliseconds(round_timeout_ms + 200));
    return open;
  }

  /// Checks that negotiation `id` expired by its round deadline.
  void check_expired(const std::string& id) {
    auto r = record(id);
    INFO(r.dump());
    if (is_open(r)) {
      FAIL_CHECK("negotiation " << id << " is still open after its deadline passed");
    } else if (r["status"] == "expired") {
      CHECK(r["status_reason"] == "Round timeout — no response within 1500 ms");
      ++tally_.expired_while_down;
    }
    // Else the move in flight at the kill ended it (accept or reject).
  }

  /// The end: every acknowledged move is in its record, no record has a
  /// move twice, and the hosted agent made the move of every negotiation
  /// it owed one at a restart (unless a deadline passed first).
  void check_record() {
    std::map<std::string, json> records;
    for (const auto& [message_id, id] : acknowledged_)
      records.emplace(id, json{});
    for (auto& [id, r] : records)
      r = record(id);
    for (const auto& acknowledged : acknowledged_) {
      const auto& [message_id, id] = acknowledged;
      const auto& rounds = records[id]["rounds"];
      auto found = std::count_if(rounds.begin(), rounds.end(), [&](const json& round) {
        return round.value("message_id", "") == acknowledged.first;
      });
      INFO("move " << message_id << " of " << records[id].dump());
      CHECK(found == 1);
    }
    for (const auto& [id, r] : records) {
      std::set<std::string> ids;
      int expected_round = 1;
      for (const auto& round : r["rounds"]) {
        CHECK(round["round"] == expected_round++);
        auto message_id = round.value("message_id", "");
        if (!message_id.empty())
          CHECK(ids.insert(message_id).second);
      }
    }
    for (const auto& id : hosted_turns_) {
      auto r = record(id);
      INFO(r.dump());
      bool moved = std::any_of(r["rounds"].begin(), r["rounds"].end(),
                               [](const json& round) { return round["from_agent"] == hosted; });
      CHECK((moved || r["status"] == "expired"));
    }
  }

  void stop() {
    process_->signal(SIGTERM);
    CHECK(process_->wait_exit(5s) == 0);
  }

  /// What the run went through, for its report.
  struct tally {
    int retried = 0;
    int applied_before_kill = 0;
    int expired_while_down = 0;
  };

  std::size_t acknowledged() const { return acknowledged_.size(); }
  const tally& counts() const { return tally_; }
  std::size_t hosted_turns() const { return hosted_turns_.size(); }

private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>{0, n - 1}(rng_); }

  json record(const std::string& id) {
    auto a = api_->get("/api/v1/negotiations/" + id);
    REQUIRE(a.status == 200);
    return a.body;
  }

  void open(lane& l) {
    json body{{"initiator", l.initiator},
              {"responder", l.responder},
              {"proposal", proposal(100000)}};
    if (!l.room_id.empty())
      body["room_id"] = l.room_id;
    auto a = api_->post("/api/v1/negotiations", body);
    INFO(a.body.dump());
    REQUIRE(a.status == 201);
    l.open = a.body["id"].get<std::string>();
  }

  json next_move(const std::string& who, const json& r) {
    auto message_id = "m-" + std::to_string(++sent_);
    auto roll = pick(10);
    if (roll == 0 || r["rounds"].size() + 1 >= static_cast<std::size_t>(r["max_rounds"]))
      return {{"message_id", message_id}, {"from", who}, {"action", "accept"}};
    if (roll == 1)
      return {{"message_id", message_id}, {"from", who}, {"action", "reject"},
              {"reason", "no deal"}};
    return {{"message_id", message_id},
            {"from", who},
            {"action", "counter"},
            {"proposal", proposal(80000 + static_cast<std::int64_t>(pick(20000)))}};
  }

  void acknowledge(const std::string& message_id, const std::string& negotiation_id) {
    acknowledged_[message_id] = negotiation_id;
  }

  std::string store_;
  bool started_ = false;
  std::mt19937 rng_;
  std::vector<lane> lanes_;
  openapi_contract contract_;
  std::optional<background_process> process_;
  std::optional<api_client> api_;
  int port_ = 0;
  std::optional<in_flight_move> in_flight_;
  /// Moves answered 2xx (or E011 after a restart): negotiation by message id.
  std::map<std::string, std::string> acknowledged_;
  /// Negotiations that owed the hosted agent a move at a restart.
  std::set<std::string> hosted_turns_;
  tally tally_;
  int sent_ = 0;
};

/// Drives, kills and restarts serve over `store` `crashes` times.
void crash_and_recover(const std::string& store, int crashes) {
  auto seed = std::random_device{}();
  INFO("seed " << seed);
  driver d{store, seed};
  d.start();
  d.register_world();
  for (int i = 0; i < crashes; ++i) {
    d.drive(6);
    d.crash();
    std::vector<std::string> must_expire;
    if (i % 5 == 4)
      must_expire = d.stay_down_past_deadlines();
    d.start();
    for (const auto& id : must_expire)
      d.check_expired(id);
    d.after_restart();
  }
  d.drive(6);
  d.check_record();
  CHECK(d.acknowledged() > 0);
  CHECK(d.counts().expired_while_down > 0);
  d.stop();
  const auto& n = d.counts();
  std::cout << "crash test over " << store << ": " << crashes << " kills, "
            << d.acknowledged() << " moves acknowledged, " << n.retried
            << " moves in flight at a kill retried (" << n.applied_before_kill
            << " of them applied before it: E011), " << n.expired_while_down
            << " negotiations expired while down, " << d.hosted_turns()
            << " hosted agent turns resumed" << std::endl;
}

} // namespace

TEST_CASE("serve resumes after kill -9 at random points, losing no acknowledged move",
          "[integration]") {
  parley::test::temp_store store;
  crash_and_recover(store.path(), 20);
}

TEST_CASE("serve resumes after kill -9 over PostgreSQL", "[integration][postgresql]") {
  if (parley::test::postgres_cluster::bin_dir().empty()) {
    WARN(parley::test::postgres_missing);
    return;
  }
  parley::test::postgres_cluster cluster;
  crash_and_recover(cluster.fresh_database("crash"), 20);
}

TEST_CASE("a hosted agent's turn pending at kill -9 is taken up after the restart",
          "[integration]") {
  parley::test::temp_store store;
  openapi_contract contract;
  std::string id;
  {
    background_process serve{serve_argv(store.path(), 10000, true)};
    api_client api{parley::test::wait_until_serving(serve), contract};
    REQUIRE(api.post("/api/v1/agents", {{"id", "ext-h"}, {"brain", {{"kind", "external"}}}})
                .status == 201);
    // It thinks 800 ms before it accepts: the kill comes first.
    json script = json::array({{{"action", "accept"}, {"delay_ms", 800}}});
    REQUIRE(api.post("/api/v1/agents",
                     {{"id", "script-s"}, {"brain", {{"kind", "script"}, {"script", script}}}})
                .status == 201);
    auto opened = api.post("/api/v1/negotiations", {{"initiator", "ext-h"},
                                                    {"responder", "script-s"},
                                                    {"proposal", proposal(50000)}});
    REQUIRE(opened.status == 201);
    id = opened.body["id"].get<std::string>();
    serve.signal(SIGKILL);
    REQUIRE(serve.wait_exit(5s));
  }
  background_process serve{serve_argv(store.path(), 10000)};
  api_client api{parley::test::wait_until_serving(serve), contract};
  CHECK(serve.output().find("recovered 2 agents, 0 rooms, 1 open negotiations") !=
        std::string::npos);
  auto turns = api.get("/api/v1/agents/script-s/turns");
  REQUIRE(turns.body["negotiations"].size() == 1);
  CHECK(turns.body["negotiations"][0]["id"] == id);
  // Its brain answers the offer handed to it again, 800 ms after the restart.
  auto record = parley::test::poll_until(
                    [&] { return api.get("/api/v1/negotiations/" + id); },
                    [](const api_client::answer& a) { return !is_open(a.body); })
                    .body;
  INFO(record.dump());
  CHECK(record["status"] == "accepted");
  REQUIRE(record["rounds"].size() == 2);
  CHECK(record["rounds"][1]["from_agent"] == "script-s");
  serve.signal(SIGTERM);
  CHECK(serve.wait_exit(5s) == 0);
}

TEST_CASE("SIGTERM during a long recovery stops serve at once and keeps the store",
          "[integration]") {
  parley::test::temp_store store;
  REQUIRE(parley::test::run_parley("db migrate --store " + store.path()).exit_code == 0);
  // 100,000 registered agents: their recovery takes about a second (ten
  // under the sanitizers), long enough for the signal to arrive while it
  // runs; the gateway recovers them in slices, so it stops between two.
  auto seeded = parley::test::run_command(
      "sqlite3 " + store.path() +
      " \"INSERT INTO parley_agents (id, spec) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
      "SELECT i + 1 FROM n WHERE i < 100000) SELECT 'a' || i, json_object('id', 'a' || i, "
      "'brain', json_object('kind', 'external')) FROM n\"");
  INFO(seeded.output);
  REQUIRE(seeded.exit_code == 0);
  {
    background_process serve{serve_argv(store.path(), 10000)};
    REQUIRE(serve.wait_for_output("recovering the store", 20s));
    serve.signal(SIGTERM);
    auto exit_code = serve.wait_exit(5s);
    INFO(serve.output());
    REQUIRE(exit_code);
    CHECK(*exit_code == 0);
    CHECK(serve.output().find("SIGTERM during recovery: stopping") != std::string::npos);
    CHECK(serve.output().find("parley serve: ready") == std::string::npos);
  }
  // Every agent is still stored for the next start.
  auto count = parley::test::run_command("sqlite3 " + store.path() +
                                         " \"SELECT count(*) FROM parley_agents\"");
  CHECK(count.output == "100000\n");
}

} // namespace integration_recovery_test
