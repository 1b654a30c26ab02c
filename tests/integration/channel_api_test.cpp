// The channel API of `parley serve` end to end (docs/protocols/channels.md,
// docs/api.md): a demand submitted over HTTP reaches external channel members, whose
// inbox shows its questions and whose answers, posted over HTTP, drive the channel
// until it finalizes. Every answer is checked against docs/openapi.json.

#include <string>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"

namespace integration_channel_api_test {

using nlohmann::json;
using parley::test::api_client;
using parley::test::await_channel;
using parley::test::await_question;
using parley::test::check_error;
using parley::test::feedback_message;
using parley::test::offer_message;
using parley::test::openapi_contract;
using parley::test::serve_process;
using parley::test::submit_meetup;

namespace {

std::string messages_of(const std::string& channel_id) {
  return "/api/v1/channels/" + channel_id + "/messages";
}

} // namespace

TEST_CASE("external members answer a demand over the API until its channel finalizes",
          "[integration][channel]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  auto receipt = submit_meetup(api);
  CHECK(receipt["status"] == "processing");
  CHECK(receipt["understanding"]["surface_demand"] ==
        "An AI meetup needs a venue and a speaker");
  CHECK(receipt["understanding"]["capability_tags"] == json({"speaker", "venue"}));
  const auto demand_id = receipt["demand_id"].get<std::string>();
  const auto channel_id = receipt["channel_id"].get<std::string>();

  for (const auto* agent : {"hall", "voice"}) {
    auto inbox = await_question(api, agent, "demand_offers", channel_id);
    CHECK(inbox["agent_id"] == agent);
    REQUIRE(inbox["demand_offers"].size() == 1);
    const auto& offer = inbox["demand_offers"][0];
    CHECK(offer["type"] == "demand_offer");
    CHECK(offer["demand_id"] == demand_id);
    CHECK(offer["round"] == 1);
    CHECK_FALSE(offer.contains("channel"));
    CHECK(inbox["proposal_reviews"].empty());
  }
  auto taken = api.post(messages_of(channel_id), offer_message("hall", "hall-o1"));
  INFO(taken.body.dump());
  REQUIRE(taken.status == 200);
  CHECK(taken.body["status"] == "accepted");
  CHECK(taken.body["message_id"] == "hall-o1");
  // Answered: out of the inbox, and a replay is ignored (E011, 200).
  CHECK(api.get("/api/v1/agents/hall/inbox").body["demand_offers"].empty());
  check_error(api.post(messages_of(channel_id), offer_message("hall", "hall-o1")), 200,
              "E011");
  // channel_id may be given in the body: it must be the path's.
  auto voiced = offer_message("voice", "voice-o1");
  voiced["channel_id"] = channel_id;
  REQUIRE(api.post(messages_of(channel_id), voiced).status == 200);

  for (const auto* agent : {"hall", "voice"}) {
    auto inbox = await_question(api, agent, "proposal_reviews", channel_id);
    REQUIRE(inbox["proposal_reviews"].size() == 1);
    const auto& review = inbox["proposal_reviews"][0];
    CHECK(review["type"] == "proposal_review");
    CHECK(review["round"] == 1);
    CHECK(review["proposal"]["demand_id"] == demand_id);
    CHECK(inbox["demand_offers"].empty());
  }
  // An offer is no longer awaited: E006, and it changes nothing.
  check_error(api.post(messages_of(channel_id), offer_message("hall", "hall-o2")), 200,
              "E006");
  REQUIRE(
      api.post(messages_of(channel_id), feedback_message("hall", "hall-f1")).status ==
      200);
  REQUIRE(
      api.post(messages_of(channel_id), feedback_message("voice", "voice-f1")).status ==
      200);

  auto channel = await_channel(api, channel_id, "finalized");
  CHECK(channel["demand_id"] == demand_id);
  CHECK(channel["round"] == 1);
  CHECK(channel["responses"] == 2);
  CHECK(channel["feedback"] == 2);
  CHECK(channel["proposal"]["demand_id"] == demand_id);
  auto demand = parley::test::poll_until(
      [&] { return api.get("/api/v1/demands/" + demand_id); },
      [](const api_client::answer& x) { return x.body["status"] != "processing"; });
  INFO(demand.body.dump());
  REQUIRE(demand.status == 200);
  CHECK(demand.body["status"] == "finalized");
  CHECK(demand.body["user_id"] == "user_alice");
  CHECK(demand.body["channels"][0]["channel_id"] == channel_id);
  CHECK(demand.body["proposal"]["demand_id"] == demand_id);
  // A replay after the end still changes nothing.
  check_error(api.post(messages_of(channel_id), feedback_message("hall", "hall-f1")),
              200, "E011");
  CHECK(api.get("/api/v1/channels/" + channel_id).body == channel);
  auto inbox = api.get("/api/v1/agents/hall/inbox").body;
  CHECK(inbox["demand_offers"].empty());
  CHECK(inbox["proposal_reviews"].empty());
}

TEST_CASE("the channel API refuses bad demands, unknown ids and bad answers",
          "[integration][channel]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  auto empty = api.post("/api/v1/demand/submit", {{"raw_input", " "}});
  check_error(empty, 400, "E001");
  CHECK(empty.body["details"]["field"] == "raw_input");
  auto oversized =
      api.post("/api/v1/demand/submit", {{"raw_input", std::string(8193, 'a')}});
  check_error(oversized, 400, "E001");
  CHECK(oversized.body["details"]["field"] == "raw_input");
  auto missing = api.post("/api/v1/demand/submit", {{"user_id", "u"}});
  check_error(missing, 400, "E001");
  CHECK(missing.body["details"]["field"] == "raw_input");
  check_error(api.get("/api/v1/demands/d-none"), 404, "E002");
  check_error(api.get("/api/v1/channels/c-none"), 404, "E007");
  check_error(api.get("/api/v1/agents/nobody/inbox"), 404, "E008");

  auto receipt = submit_meetup(api);
  const auto channel_id = receipt["channel_id"].get<std::string>();
  await_question(api, "hall", "demand_offers", channel_id);
  check_error(api.post(messages_of(channel_id), offer_message("nobody", "n1")), 404,
              "E008");
  check_error(api.post(messages_of("c-none"), offer_message("hall", "h1")), 404,
              "E007");
  // A registered agent that is not an external channel member has no inbox.
  REQUIRE(
      api.post("/api/v1/agents", {{"id", "plain"}, {"brain", {{"kind", "external"}}}})
          .status == 201);
  check_error(api.get("/api/v1/agents/plain/inbox"), 404, "E008");
  auto untyped = offer_message("hall", "h2");
  untyped.erase("type");
  auto bad = api.post(messages_of(channel_id), untyped);
  check_error(bad, 400, "E001");
  CHECK(bad.body["details"]["field"] == "type");
  auto elsewhere = offer_message("hall", "h3");
  elsewhere["channel_id"] = "c-other";
  bad = api.post(messages_of(channel_id), elsewhere);
  check_error(bad, 400, "E001");
  CHECK(bad.body["details"]["field"] == "channel_id");
  auto hollow = offer_message("hall", "h4");
  hollow.erase("contribution");
  check_error(api.post(messages_of(channel_id), hollow), 400, "E001");
  // None of these reached the channel: the question is still open.
  auto inbox = api.get("/api/v1/agents/hall/inbox");
  CHECK(inbox.body["demand_offers"].size() == 1);
}

TEST_CASE("a deleted agent is no channel member any more", "[integration][channel]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  REQUIRE(
      api.post("/api/v1/agents", parley::test::channel_agent("hall", "venue")).status ==
      201);
  REQUIRE(api.get("/api/v1/agents/hall/inbox").status == 200);
  REQUIRE(api.del("/api/v1/agents/hall").status == 200);
  // The member ends with its agent's actor, just after the answer.
  auto inbox = parley::test::poll_until(
      [&] { return api.get("/api/v1/agents/hall/inbox"); },
      [](const api_client::answer& x) { return x.status == 404; });
  check_error(inbox, 404, "E008");
  // Nobody is left to take a demand up: E005, once the coordinator heard of
  // the end too (a demand submitted before that may still pick "hall").
  auto refused = parley::test::poll_until(
      [&] {
        return api.post("/api/v1/demand/submit", {{"raw_input", "a venue"}});
      },
      [](const api_client::answer& x) { return x.body["error_code"] == "E005"; });
  check_error(refused, 200, "E005");
  CHECK(refused.body["message"].get<std::string>().find("no agents are registered") !=
        std::string::npos);
}

} // namespace integration_channel_api_test
