// Channels (docs/protocols/channels.md) survive `parley serve` being killed with
// SIGKILL: a demand submitted over the API to external members is killed while its
// channel collects offers, or while it collects feedback on its proposal; after the
// restart the channel goes on from its stored events (the members still missing are
// asked again, a replayed message id is ignored with E011) and ends exactly once.
// Against SQLite, and PostgreSQL when its server binaries are installed.

#include <chrono>
#include <csignal>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"
#include "support/store_backends.hpp"

namespace integration_channel_restart_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::await_channel;
using parley::test::await_question;
using parley::test::background_process;
using parley::test::feedback_message;
using parley::test::offer_message;
using parley::test::openapi_contract;
using parley::test::poll_until;
using parley::test::store_target;

namespace {

std::string messages_of(const std::string& channel_id) {
  return "/api/v1/channels/" + channel_id + "/messages";
}

/// `parley serve` over one store, started, killed and started again.
class restarts {
public:
  explicit restarts(store_target store) : store_(std::move(store)) {}

  /// Starts serve over the store, creating it the first time.
  void start() {
    std::vector<std::string> argv{PARLEY_BINARY, "serve",   "--port",
                                  "0",           "--store", store_.url};
    if (!started_)
      argv.emplace_back("--create-store");
    started_ = true;
    process_.emplace(argv);
    api_.emplace(parley::test::wait_until_serving(*process_), contract_);
  }

  /// SIGKILL: nothing is flushed, nothing is said goodbye to.
  void kill() {
    api_.reset();
    process_->signal(SIGKILL);
    REQUIRE(process_->wait_exit(5s));
  }

  void stop() {
    api_.reset();
    process_->signal(SIGTERM);
    CHECK(process_->wait_exit(5s) == 0);
  }

  api_client& api() { return *api_; }
  std::string output() const { return process_->output(); }

  /// How many of channel `id`'s stored events are of one of `types`.
  int stored_events(const std::string& id, const std::string& types) {
    // psql: unaligned, tuples only (sqlite3 prints just the number).
    auto prefix =
        store_.kind == "postgresql" ? std::string{"\\a\n\\t\n"} : std::string{};
    auto r = store_.exec(prefix +
                         "SELECT count(*) FROM channel_events WHERE channel_id = '" +
                         id + "' AND type IN (" + types + ");\n");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return std::stoi(r.output);
  }

private:
  store_target store_;
  bool started_ = false;
  openapi_contract contract_;
  std::optional<background_process> process_;
  std::optional<api_client> api_;
};

constexpr const char* terminal_types =
    "'proposal.finalized', 'negotiation.force_finalized', 'negotiation.failed'";

/// Submits the meetup demand; returns the receipt once both members have
/// it in their inbox.
json submit(api_client& api) {
  auto receipt = parley::test::submit_meetup(api);
  for (const auto* agent : {"hall", "voice"})
    await_question(api, agent, "demand_offers", receipt["channel_id"]);
  return receipt;
}

/// Every one of `agents` answers `kind` ("offer" or "feedback") in full
/// agreement, with message id `<agent>-<kind>`.
void answer(api_client& api, const std::string& channel_id,
            const std::vector<std::string>& agents, const std::string& kind) {
  for (const auto& agent : agents) {
    auto id = agent + "-" + kind;
    auto body =
        kind == "offer" ? offer_message(agent, id) : feedback_message(agent, id);
    auto a = api.post(messages_of(channel_id), body);
    INFO(a.body.dump());
    REQUIRE(a.status == 200);
    CHECK(a.body["status"] == "accepted");
  }
}

/// The channel's stored row once `field` reached `count` (its answer is
/// committed: a kill after this cannot lose it).
json await_stored(api_client& api, const std::string& channel_id,
                  const std::string& field, int count) {
  auto a = poll_until([&] { return api.get("/api/v1/channels/" + channel_id); },
                      [&](const api_client::answer& x) {
                        return x.status == 200 && x.body[field] == count;
                      });
  INFO(a.body.dump());
  REQUIRE(a.body[field] == count);
  return a.body;
}

/// Whether `agent`'s inbox holds a question of `channel_id` in `list`.
bool asked(api_client& api, const std::string& agent, const std::string& list,
           const std::string& channel_id) {
  auto inbox = api.get("/api/v1/agents/" + agent + "/inbox").body;
  for (const auto& q : inbox[list])
    if (q["channel_id"] == channel_id)
      return true;
  return false;
}

/// Kills serve once hall's answer `hall_answer` is stored (`field` is 1 in
/// the channel's row) and starts it again. Then the channel is resumed: its
/// demand is known again, nothing it did was done or stored twice, voice
/// (still missing) has the question in `list` again and hall has not, and
/// hall's answer replayed is ignored (E011) and changes nothing.
void kill_and_restart(restarts& serve, const json& receipt, const std::string& field,
                      const std::string& list, const json& hall_answer) {
  const auto demand_id = receipt["demand_id"].get<std::string>();
  const auto channel_id = receipt["channel_id"].get<std::string>();
  auto before = await_stored(serve.api(), channel_id, field, 1);
  auto submitted = serve.api().get("/api/v1/demands/" + demand_id).body;
  serve.kill();
  serve.start();
  INFO(serve.output());
  CHECK(serve.output().find("recovered 2 agents, 0 rooms, 0 open negotiations, 1 open "
                            "channels") != std::string::npos);
  CHECK(serve.output().find("not resumed") == std::string::npos);
  auto& api = serve.api();
  auto demand = api.get("/api/v1/demands/" + demand_id);
  INFO(demand.body.dump());
  REQUIRE(demand.status == 200);
  CHECK(demand.body["status"] == "processing");
  CHECK(demand.body["channels"][0]["channel_id"] == channel_id);
  // What the user submitted comes back from the store.
  CHECK(demand.body["user_id"] == "user_alice");
  CHECK(demand.body["raw_input"] == submitted["raw_input"]);
  CHECK(demand.body["understanding"] == submitted["understanding"]);
  CHECK(api.get("/api/v1/channels/" + channel_id).body == before);
  CHECK(serve.stored_events(channel_id, "'channel.created'") == 1);
  CHECK(serve.stored_events(channel_id, "'demand.broadcast'") == 1);
  await_question(api, "voice", list, channel_id);
  CHECK_FALSE(asked(api, "hall", list, channel_id));
  auto replay = api.post(messages_of(channel_id), hall_answer);
  INFO(replay.body.dump());
  CHECK(replay.status == 200);
  CHECK(replay.body["error_code"] == "E011");
  CHECK(api.get("/api/v1/channels/" + channel_id).body == before);
}

/// Both members accept: the channel finalizes, exactly once, and so does
/// its demand.
void check_ended_once(restarts& serve, const std::string& demand_id,
                      const std::string& channel_id) {
  auto& api = serve.api();
  auto row = await_channel(api, channel_id, "finalized");
  CHECK(row["responses"] == 2);
  CHECK(row["feedback"] == 2);
  auto demand = poll_until(
      [&] { return api.get("/api/v1/demands/" + demand_id); },
      [](const api_client::answer& x) { return x.body["status"] != "processing"; });
  INFO(demand.body.dump());
  CHECK(demand.body["status"] == "finalized");
  CHECK(demand.body["proposal"]["demand_id"] == demand_id);
  CHECK(serve.stored_events(channel_id, terminal_types) == 1);
  CHECK(serve.stored_events(channel_id, "'proposal.distributed'") == 1);
}

/// The demand of `receipt`, ended, is answered the same after a restart:
/// no process knows it live any more, the store does. An unknown demand is
/// still E002. Hall's offer replayed to the ended channel is recognised
/// from the store (E011); an answer it never gave is refused (E007).
void check_ended_after_restart(restarts& serve, const json& receipt) {
  const auto path = "/api/v1/demands/" + receipt["demand_id"].get<std::string>();
  auto ended = serve.api().get(path).body;
  serve.stop();
  serve.start();
  INFO(serve.output());
  CHECK(serve.output().find("0 open channels") != std::string::npos);
  auto& api = serve.api();
  auto again = api.get(path);
  INFO(again.body.dump());
  REQUIRE(again.status == 200);
  for (const auto* field :
       {"demand_id", "user_id", "raw_input", "status", "understanding", "proposal"})
    CHECK(again.body[field] == ended[field]);
  CHECK(again.body["channels"][0]["channel_id"] == receipt["channel_id"]);
  CHECK(again.body["channels"][0]["status"] == "finalized");
  auto unknown = api.get("/api/v1/demands/d-00000000");
  CHECK(unknown.status == 404);
  CHECK(unknown.body["error_code"] == "E002");
  const auto channel_id = receipt["channel_id"].get<std::string>();
  auto replay = api.post(messages_of(channel_id), offer_message("hall", "hall-offer"));
  INFO(replay.body.dump());
  CHECK(replay.status == 200);
  CHECK(replay.body["error_code"] == "E011");
  auto late = api.post(messages_of(channel_id), offer_message("hall", "hall-late"));
  INFO(late.body.dump());
  CHECK(late.status == 404);
  CHECK(late.body["error_code"] == "E007");
  serve.stop();
}

} // namespace

TEST_CASE("a channel killed while collecting offers resumes and ends once",
          "[integration][channel][restart]") {
  parley::test::for_each_store("channel_collecting", [](const store_target& store) {
    restarts serve{store};
    serve.start();
    auto receipt = submit(serve.api());
    const auto channel_id = receipt["channel_id"].get<std::string>();
    answer(serve.api(), channel_id, {"hall"}, "offer");
    kill_and_restart(serve, receipt, "responses", "demand_offers",
                     offer_message("hall", "hall-offer"));
    auto& api = serve.api();
    answer(api, channel_id, {"voice"}, "offer");
    for (const auto* agent : {"hall", "voice"})
      await_question(api, agent, "proposal_reviews", channel_id);
    answer(api, channel_id, {"hall", "voice"}, "feedback");
    check_ended_once(serve, receipt["demand_id"], channel_id);
    CHECK(serve.stored_events(channel_id, "'offer.submitted'") == 2);
    check_ended_after_restart(serve, receipt);
  });
}

TEST_CASE("a channel killed while collecting feedback resumes and ends once",
          "[integration][channel][restart]") {
  parley::test::for_each_store("channel_negotiating", [](const store_target& store) {
    restarts serve{store};
    serve.start();
    auto receipt = submit(serve.api());
    const auto channel_id = receipt["channel_id"].get<std::string>();
    answer(serve.api(), channel_id, {"hall", "voice"}, "offer");
    for (const auto* agent : {"hall", "voice"})
      await_question(serve.api(), agent, "proposal_reviews", channel_id);
    answer(serve.api(), channel_id, {"hall"}, "feedback");
    kill_and_restart(serve, receipt, "feedback", "proposal_reviews",
                     feedback_message("hall", "hall-feedback"));
    answer(serve.api(), channel_id, {"voice"}, "feedback");
    check_ended_once(serve, receipt["demand_id"], channel_id);
    CHECK(serve.stored_events(channel_id, "'proposal.feedback'") == 2);
    serve.stop();
  });
}

} // namespace integration_channel_restart_test
