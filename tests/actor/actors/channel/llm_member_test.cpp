#include "actors/channel/llm_member.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "caf/event_based_actor.hpp"

#include "actors/llm/client.hpp"
#include "support/actor_fixture.hpp"
#include "messages/channel.hpp"
#include "messages/channel_messages.hpp"
#include "messages/demand.hpp"

namespace actor_actors_channel_llm_member_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::actor_fixture;
namespace msg = parley::messages;
namespace ch = parley::actors::channel;

namespace {

/// Stands in for the HTTP client: keeps every request and never answers, so
/// the test answers for the provider (or does not).
caf::behavior recording_client(caf::event_based_actor*,
                               std::vector<msg::llm_request>* seen) {
  return {[seen](const msg::llm_request& x) {
    seen->push_back(x);
  }};
}

/// Stands in for a channel: keeps what its member answers.
struct answers {
  std::vector<msg::offer_response> offers;
  std::vector<msg::proposal_feedback> feedback;
};

caf::behavior recording_channel(caf::event_based_actor*, answers* out) {
  return {
      [out](const msg::offer_response& x) { out->offers.push_back(x); },
      [out](const msg::proposal_feedback& x) { out->feedback.push_back(x); },
  };
}

const std::string chinese_demand = "在北京办一场AI聚会，需要场地";

msg::channel_member_spec llm_spec() {
  msg::channel_member_spec x;
  x.profile.agent_id = "alice";
  x.profile.display_name = "Alice 场地";
  x.profile.capabilities = {"场地"};
  x.profile.description = "北京的活动场地，可容纳 80 人";
  x.brain = msg::member_brain_kind::llm;
  return x;
}

/// The provider's answer (Anthropic form) holding `text`.
std::string reply_with(const std::string& text) {
  return json{{"content", {{{"type", "text"}, {"text", text}}}},
              {"stop_reason", "end_turn"}}
      .dump();
}

json good_offer() {
  return {{"response_type", "offer"},
          {"decision", "participate"},
          {"contribution", "提供 80 人的场地"},
          {"reasoning", "场地空闲"},
          {"confidence", 85}};
}

struct member_setup {
  actor_fixture fx;
  std::vector<msg::llm_request> seen;
  answers got;
  parley::actors::channel_actor channel;
  ch::llm_member_actor member;

  /// A member whose client is the recording stand-in.
  member_setup() {
    auto stand_in = fx.sys.spawn(recording_client, &seen);
    fx.keep(stand_in);
    auto client = caf::actor_cast<parley::actors::llm_client_actor>(stand_in);
    auto c = fx.sys.spawn(recording_channel, &got);
    fx.keep(c);
    channel = caf::actor_cast<parley::actors::channel_actor>(c);
    ch::llm_member_options o;
    o.model.client = client;
    o.answer_timeout_ms = 5000;
    member = ch::spawn_llm_member(fx.sys, llm_spec(), fx.events, o);
    fx.keep(member);
  }

  msg::demand_offer offer(std::int32_t round = 1) const {
    msg::demand_offer x;
    x.channel = channel;
    x.channel_id = "collab-1";
    x.demand_id = "d-1";
    x.surface_demand = chinese_demand;
    x.capability_tags = {"场地"};
    x.round = round;
    x.match_score = 90;
    return x;
  }

  msg::proposal_review review() const {
    msg::proposal_review x;
    x.channel = channel;
    x.channel_id = "collab-1";
    x.demand_id = "d-1";
    msg::channel_proposal proposal;
    proposal.summary = "Alice provides the venue";
    proposal.objective = "An AI meetup in Beijing";
    x.proposal = msg::shared<msg::channel_proposal>{std::move(proposal)};
    x.round = 2;
    return x;
  }

  /// The warnings published so far.
  std::vector<msg::problem_event> warnings() const {
    std::vector<msg::problem_event> xs;
    for (const auto& p : fx.seen.problems)
      if (p.severity == msg::severity::warning)
        xs.push_back(p);
    return xs;
  }
};

} // namespace

TEST_CASE("an LLM member answers a demand with the model's offer",
          "[actor][channel][llm_member]") {
  member_setup s;
  s.fx.send(s.member, s.offer());
  s.fx.run();
  REQUIRE(s.seen.size() == 1);
  // Prompt 3 in the demand's language, the demand byte for byte.
  auto request = json::parse(s.seen[0].body);
  CHECK(request["messages"][0]["content"].get<std::string>().find(chinese_demand) !=
        std::string::npos);
  s.fx.send(s.member,
            msg::llm_response{s.seen[0].call_id,
                              200,
                              reply_with("```json\n" + good_offer().dump() + "\n```"),
                              {},
                              {}});
  s.fx.run();
  REQUIRE(s.got.offers.size() == 1);
  const auto& x = s.got.offers[0];
  CHECK(x.message_id == "collab-1:alice:r1:offer");
  CHECK(x.agent_id == "alice");
  CHECK(x.display_name == "Alice 场地");
  CHECK(x.decision == msg::offer_decision::participate);
  CHECK(x.contribution == "提供 80 人的场地");
  CHECK(x.confidence == 85);
  CHECK(s.fx.seen.problems.empty());
}

TEST_CASE("an LLM member serves many channels at once, in any answer order",
          "[actor][channel][llm_member]") {
  member_setup s;
  auto first = s.offer();
  auto second = s.offer();
  second.channel_id = "collab-2";
  s.fx.send(s.member, first);
  s.fx.send(s.member, second);
  s.fx.send(s.member, s.review());
  s.fx.run();
  REQUIRE(s.seen.size() == 3); // every call is in flight: nothing waits
  json feedback = {{"feedback_type", "negotiate"},
                   {"adjustment_request", "Move it to Saturday"},
                   {"reasoning", "Friday is taken"}};
  s.fx.send(s.member, msg::llm_response{
                          s.seen[2].call_id, 200, reply_with(feedback.dump()), {}, {}});
  s.fx.send(s.member,
            msg::llm_response{
                s.seen[1].call_id, 200, reply_with(good_offer().dump()), {}, {}});
  s.fx.run();
  REQUIRE(s.got.feedback.size() == 1);
  CHECK(s.got.feedback[0].message_id == "collab-1:alice:r2:feedback");
  CHECK(s.got.feedback[0].feedback_type == msg::feedback_type::negotiate);
  CHECK(s.got.feedback[0].adjustment_request == "Move it to Saturday");
  REQUIRE(s.got.offers.size() == 1);
  CHECK(s.got.offers[0].channel_id == "collab-2");
  CHECK(s.fx.seen.problems.empty());
}

TEST_CASE("an LLM member falls back, visibly, when the model's answer is unusable",
          "[actor][channel][llm_member]") {
  member_setup s;
  s.fx.send(s.member, s.offer());
  s.fx.send(s.member, s.review());
  s.fx.run();
  REQUIRE(s.seen.size() == 2);
  s.fx.send(s.member, msg::llm_response{
                          s.seen[0].call_id, 200, reply_with("我愿意参加"), {}, {}});
  s.fx.send(s.member, msg::llm_response{s.seen[1].call_id, 200, "not json", {}, {}});
  s.fx.run();
  REQUIRE(s.got.offers.size() == 1);
  CHECK(s.got.offers[0].contribution == "愿意参与，具体贡献待确认");
  CHECK(s.got.offers[0].confidence == 50);
  REQUIRE(s.got.feedback.size() == 1);
  CHECK(s.got.feedback[0].feedback_type == msg::feedback_type::accept);
  auto w = s.warnings();
  REQUIRE(w.size() == 2);
  CHECK(w[0].code == msg::error_code::invalid_request);
  CHECK(w[0].agent_id == "alice");
  CHECK(w[0].message_id == "collab-1:alice:r1:offer");
  CHECK(w[0].message.find("answered with the fallback: the answer holds no JSON "
                          "object") != std::string::npos);
  CHECK(w[1].message_id == "collab-1:alice:r2:feedback");
  CHECK(w[1].message.find("unreadable LLM answer") != std::string::npos);
}

TEST_CASE("an LLM member falls back when the call fails or is never answered",
          "[actor][channel][llm_member]") {
  member_setup s;
  s.fx.send(s.member, s.offer(1));
  s.fx.send(s.member, s.offer(2));
  s.fx.run();
  REQUIRE(s.seen.size() == 2);
  s.fx.send(s.member,
            msg::llm_response{
                s.seen[0].call_id, 0, {}, msg::error_code::llm_timeout, "timed out"});
  s.fx.run();
  REQUIRE(s.got.offers.size() == 1);
  CHECK(s.got.offers[0].message_id == "collab-1:alice:r1:offer");
  CHECK(s.got.offers[0].confidence == 50);
  s.fx.advance(4999ms);
  CHECK(s.got.offers.size() == 1);
  s.fx.advance(1ms);
  REQUIRE(s.got.offers.size() == 2); // its own deadline: the client never answered
  CHECK(s.got.offers[1].message_id == "collab-1:alice:r2:offer");
  // A late answer changes nothing.
  s.fx.send(s.member,
            msg::llm_response{
                s.seen[1].call_id, 200, reply_with(good_offer().dump()), {}, {}});
  s.fx.run();
  CHECK(s.got.offers.size() == 2);
  auto w = s.warnings();
  REQUIRE(w.size() == 2);
  CHECK(w[0].code == msg::error_code::llm_timeout);
  CHECK(w[0].message.find("LLM call failed (E004): timed out") != std::string::npos);
  CHECK(w[1].code == msg::error_code::llm_timeout);
  CHECK(w[1].message.find("no LLM answer within 5000 ms") != std::string::npos);
}

TEST_CASE("an LLM member's calls go through the client's circuit breaker",
          "[actor][channel][llm_member]") {
  std::vector<msg::llm_request> attempts;
  member_setup s;
  // A second member, whose client is a real one; the test performs its
  // attempts.
  auto performer = s.fx.sys.spawn(recording_client, &attempts);
  s.fx.keep(performer);
  parley::actors::llm::llm_client_options o;
  o.max_retries = 0;
  o.breaker_threshold = 2;
  o.performer = caf::actor_cast<parley::actors::llm_performer_actor>(performer);
  auto client = parley::actors::llm::spawn_llm_client(s.fx.sys, o);
  s.fx.keep(client);
  ch::llm_member_options mo;
  mo.model.client = client;
  auto member = ch::spawn_llm_member(s.fx.sys, llm_spec(), s.fx.events, mo);
  s.fx.keep(member);
  for (std::int32_t round = 1; round <= 2; ++round) {
    s.fx.send(member, s.offer(round));
    s.fx.run();
    REQUIRE(attempts.size() == static_cast<std::size_t>(round));
    s.fx.send(client, msg::llm_attempt{attempts.back().call_id,
                                       msg::error_code::llm_unavailable,
                                       "connection refused",
                                       0,
                                       {},
                                       {}});
    s.fx.run();
  }
  // Two failures opened the breaker: the third call fails at once.
  s.fx.send(member, s.offer(3));
  s.fx.run();
  CHECK(attempts.size() == 2);
  REQUIRE(s.got.offers.size() == 3);
  auto w = s.warnings();
  REQUIRE(w.size() == 3);
  CHECK(w[2].code == msg::error_code::llm_unavailable);
  CHECK(w[2].message.find("circuit open") != std::string::npos);
}

} // namespace actor_actors_channel_llm_member_test
