#include "actors/channel/prompts.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_channel_prompts_test {

using namespace parley::actors::channel;
using namespace parley::messages;
using nlohmann::json;

namespace {

const std::string chinese_demand = "我想在北京办一场AI主题聚会，需要场地和嘉宾";
const std::string english_demand = "An AI meetup in Berlin with a venue and speakers";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

channel_profile member() {
  return {"alice", "Alice", {"场地提供"}, "北京的活动场地，可容纳 80 人", true};
}

demand_offer invitation(const std::string& demand) {
  demand_offer x;
  x.channel_id = "collab-1";
  x.demand_id = "d-1";
  x.surface_demand = demand;
  x.capability_tags = {"场地提供"};
  x.round = 2;
  x.filter_reason = "offers 场地提供";
  x.match_score = 90;
  return x;
}

json good_offer() {
  return {{"response_type", "offer"},
          {"decision", "participate"},
          {"contribution", "提供 80 人的场地"},
          {"conditions", json::array()},
          {"reasoning", "场地空闲"},
          {"confidence", 85}};
}

offer_response answer(const std::string& agent, offer_decision decision) {
  offer_response x;
  x.message_id = "m-" + agent;
  x.channel_id = "collab-1";
  x.agent_id = agent;
  x.display_name = "Agent " + agent;
  x.decision = decision;
  x.contribution = agent + " 的贡献";
  x.confidence = 70;
  return x;
}

aggregation_input round_of(const std::string& objective) {
  return {"collab-1",
          "d-1",
          objective,
          2,
          3,
          {answer("ann", offer_decision::participate),
           answer("bob", offer_decision::decline),
           answer("cat", offer_decision::conditional)},
          42,
          {},
          {}};
}

json assigned(std::string id, std::string role, json dependencies = json::array()) {
  return {{"agent_id", std::move(id)},
          {"role", std::move(role)},
          {"responsibility", "负责"},
          {"dependencies", std::move(dependencies)}};
}

json good_proposal() {
  return {{"summary", "ann 提供场地，cat 邀请嘉宾"},
          {"objective", "办一场AI聚会"},
          {"assignments", {assigned("ann", "场地"), assigned("cat", "嘉宾", {"ann"})}},
          {"timeline", {{"week_1", "确认场地"}}},
          {"rationale", "能力互补"},
          {"gaps", {{{"description", "缺少摄影"}, {"capability_tags", {"摄影"}}}}},
          {"confidence", "medium"}};
}

proposal_review review_of(const std::string& objective) {
  proposal_review x;
  x.channel_id = "collab-1";
  x.demand_id = "d-1";
  x.proposal =
      shared<channel_proposal>{aggregate(round_of(objective), channel_settings{})};
  x.round = 2;
  x.max_rounds = 5;
  x.your_assignment = x.proposal->assignments.front();
  return x;
}

} // namespace

TEST_CASE("prompt 3 speaks for the member in the demand's language",
          "[unit][channel]") {
  auto zh = offer_prompt(member(), invitation(chinese_demand));
  CHECK(contains(zh.system, "你代表 Agent Alice (alice)"));
  CHECK(contains(zh.user, "北京的活动场地，可容纳 80 人"));
  CHECK(contains(zh.user, "\"surface_demand\": \"" + chinese_demand + "\""));
  CHECK(contains(zh.user, "\"match_score\": 90"));
  CHECK(contains(zh.user, "\"response_type\": \"offer | negotiate\""));
  auto en = offer_prompt(member(), invitation(english_demand));
  CHECK(contains(en.system, "You act for the agent Alice (alice)"));
  CHECK(contains(en.user, english_demand));
  CHECK(contains(en.user, "Answer with one JSON object"));
}

TEST_CASE("a good answer to prompt 3 is the member's offer response",
          "[unit][channel]") {
  auto x = read_offer_response("```json\n" + good_offer().dump() + "\n```", member(),
                               invitation(chinese_demand), "msg-1");
  REQUIRE_FALSE(x.fallback());
  CHECK_FALSE(x.value.fallback);
  CHECK(x.value.message_id == "msg-1");
  CHECK(x.value.channel_id == "collab-1");
  CHECK(x.value.agent_id == "alice");
  CHECK(x.value.display_name == "Alice");
  CHECK(x.value.decision == offer_decision::participate);
  CHECK(x.value.contribution == "提供 80 人的场地");
  CHECK(x.value.confidence == 85);
  auto bargain = good_offer();
  bargain["response_type"] = "negotiate";
  bargain["decision"] = "conditional";
  bargain["agent_id"] = "mallory"; // ids never come from the model
  bargain["negotiation_points"] = {{{"aspect", "日期"},
                                    {"current_value", "周五"},
                                    {"desired_value", "周六"},
                                    {"reason", "周五有活动"}}};
  auto y = read_offer_response(bargain.dump(), member(), invitation(chinese_demand),
                               "msg-2");
  REQUIRE_FALSE(y.fallback());
  CHECK(y.value.agent_id == "alice");
  CHECK(y.value.response_type == offer_response_type::negotiate);
  REQUIRE(y.value.negotiation_points.size() == 1);
  CHECK(y.value.negotiation_points[0].desired_value == "周六");
}

TEST_CASE("an unusable answer to prompt 3 gives the fallback offer",
          "[unit][channel]") {
  auto check = [](const json& answer, const std::string& reason,
                  const std::string& demand = chinese_demand) {
    auto x = read_offer_response(answer.is_string() ? answer.get<std::string>()
                                                    : answer.dump(),
                                 member(), invitation(demand), "msg-1");
    CHECK(x.fallback_reason == reason);
    CHECK(x.fallback());
    CHECK(x.value.fallback);
    CHECK(x.value.message_id == "msg-1");
    CHECK(x.value.agent_id == "alice");
    CHECK(x.value.channel_id == "collab-1");
    CHECK(x.value.response_type == offer_response_type::offer);
    CHECK(x.value.decision == offer_decision::participate);
    CHECK(x.value.confidence == 50);
    CHECK(x.value.negotiation_points.empty());
    CHECK(x.value.contribution == (demand == chinese_demand
                                       ? "愿意参与，具体贡献待确认"
                                       : "Willing to take part; contribution to be "
                                         "confirmed"));
  };
  check("我愿意参加", "the answer holds no JSON object");
  check("", "the answer is empty", english_demand);
  auto wrong = good_offer();
  wrong["decision"] = "maybe";
  check(wrong, "decision: expected one of participate | decline | conditional, got "
               "\"maybe\"");
  auto high = good_offer();
  high["confidence"] = 150;
  check(high, "confidence must be within 0..100, got 150");
  auto missing = good_offer();
  missing.erase("reasoning");
  check(missing, "reasoning: required field is missing");
  auto empty = good_offer();
  empty.erase("contribution");
  check(empty, "an offer that takes part needs a contribution");
  auto negotiate = good_offer();
  negotiate["response_type"] = "negotiate";
  check(negotiate, "negotiate needs at least one negotiation point");
  auto point = good_offer();
  point["negotiation_points"] = {{{"aspect", "日期"}}};
  check(point, "negotiation_points[0].desired_value: required field is missing");
}

TEST_CASE("prompt 5 shows the proposal and the member's assignment",
          "[unit][channel]") {
  auto zh = feedback_prompt(member(), review_of(chinese_demand));
  CHECK(contains(zh.system, "你代表 Agent Alice"));
  CHECK(contains(zh.user, "第 2 / 5 轮的方案"));
  CHECK(contains(zh.user, "\"objective\": \"" + chinese_demand + "\""));
  CHECK(contains(zh.user, "你的分工"));
  CHECK(contains(zh.user, "\"feedback_type\": \"accept | negotiate | withdraw\""));
  auto review = review_of(english_demand);
  review.your_assignment = caf::none;
  auto en = feedback_prompt(member(), review);
  CHECK(contains(en.user, "The proposal of round 2 / 5"));
  CHECK_FALSE(contains(en.user, "Your assignment"));
}

TEST_CASE("a good answer to prompt 5 is the member's feedback", "[unit][channel]") {
  json answer = {{"feedback_type", "negotiate"},
                 {"adjustment_request", "改到周六"},
                 {"reasoning", "周五没空"}};
  auto x = read_feedback("My feedback: " + answer.dump(), member(),
                         review_of(chinese_demand), "msg-9");
  REQUIRE_FALSE(x.fallback());
  CHECK_FALSE(x.value.fallback);
  CHECK(x.value.message_id == "msg-9");
  CHECK(x.value.channel_id == "collab-1");
  CHECK(x.value.agent_id == "alice");
  CHECK(x.value.feedback_type == feedback_type::negotiate);
  CHECK(x.value.adjustment_request == "改到周六");
  CHECK(x.value.reasoning == "周五没空");
}

TEST_CASE("an unusable answer to prompt 5 accepts by default", "[unit][channel]") {
  auto check = [](const std::string& answer, const std::string& reason,
                  const std::string& demand = chinese_demand) {
    auto x = read_feedback(answer, member(), review_of(demand), "msg-9");
    CHECK(x.fallback_reason == reason);
    CHECK(x.fallback());
    CHECK(x.value.fallback);
    CHECK(x.value.message_id == "msg-9");
    CHECK(x.value.agent_id == "alice");
    CHECK(x.value.feedback_type == feedback_type::accept);
    CHECK(x.value.adjustment_request.empty());
    CHECK(x.value.reasoning == (demand == chinese_demand
                                    ? "系统繁忙，默认接受"
                                    : "System busy; accepted by default"));
  };
  check("<html>502</html>", "the answer holds no JSON object", english_demand);
  check(R"({"feedback_type": "reject", "reasoning": "no"})",
        "feedback_type: expected one of accept | negotiate | withdraw, got \"reject\"");
  check(R"({"feedback_type": "accept"})", "reasoning: required field is missing");
  check(R"({"feedback_type": "negotiate", "reasoning": "r"})",
        "adjustment_request: must not be empty");
  check(R"({"feedback_type": "accept", "reasoning": 3})",
        "reasoning: expected a string, got an integer");
}

TEST_CASE("prompt 4 shows the round's offers in the demand's language",
          "[unit][channel]") {
  auto zh = aggregation_prompt(round_of(chinese_demand));
  CHECK(contains(zh.system, "Channel 的管理员"));
  CHECK(contains(zh.user, "需求：" + chinese_demand));
  CHECK(contains(zh.user, "第 2 轮；受邀候选人数：3"));
  CHECK(contains(zh.user, "\"agent_id\": \"cat\""));
  CHECK(contains(zh.user, "cat 的贡献"));
  CHECK_FALSE(contains(zh.user, "m-cat")); // message ids are not the model's business
  auto en = aggregation_prompt(round_of(english_demand));
  CHECK(contains(en.user, "The demand: " + english_demand));
  CHECK(contains(en.user, "Round 2; candidates invited: 3"));
}

TEST_CASE("a good answer to prompt 4 is the round's proposal", "[unit][channel]") {
  auto in = round_of(chinese_demand);
  auto x = read_proposal("```\n" + good_proposal().dump(2) + "\n```", in,
                         channel_settings{});
  REQUIRE_FALSE(x.fallback());
  const auto& p = x.value;
  CHECK_FALSE(p.fallback);
  CHECK(p.proposal_id == "collab-1-v2");
  CHECK(p.demand_id == "d-1");
  CHECK(p.version == 2);
  CHECK(p.created_at == 42);
  CHECK(p.summary == "ann 提供场地，cat 邀请嘉宾");
  CHECK(p.objective == "办一场AI聚会");
  REQUIRE(p.assignments.size() == 2);
  CHECK(p.assignments[0].display_name == "Agent ann");
  CHECK(p.assignments[0].is_confirmed);
  CHECK_FALSE(p.assignments[1].is_confirmed); // conditional
  CHECK(p.assignments[1].dependencies == std::vector<std::string>{"ann"});
  REQUIRE(p.gaps.size() == 1);
  CHECK(p.gaps[0].description == "缺少摄影");
  CHECK(json::parse(p.timeline.text) == json{{"week_1", "确认场地"}});
  CHECK(p.confidence == confidence_level::medium);
}

TEST_CASE("an unusable answer to prompt 4 is the simple merge, marked fallback",
          "[unit][channel]") {
  auto in = round_of(chinese_demand);
  auto expected = aggregate(in, channel_settings{});
  expected.fallback = true;
  auto check = [&](const json& answer, const std::string& reason,
                   channel_settings settings = {}) {
    auto x = read_proposal(
        answer.is_string() ? answer.get<std::string>() : answer.dump(), in, settings);
    CHECK(x.fallback_reason == reason);
    CHECK(x.fallback());
    CHECK(x.value.fallback);
    if (settings == channel_settings{})
      CHECK(x.value == expected);
  };
  check("", "the answer is empty");
  check("[]", "the answer holds no JSON object");
  auto wrong = good_proposal();
  wrong["confidence"] = 0.9;
  check(
      wrong,
      "confidence: expected one of high | medium | low, got a number with a fraction");
  auto declined = good_proposal();
  declined["assignments"] = json::array({assigned("bob", "主持")});
  check(declined, "assignments[0].agent_id: \"bob\" has no offer that takes part");
  auto twice = good_proposal();
  twice["assignments"] = {assigned("ann", "场地"), assigned("ann", "嘉宾")};
  check(twice, "assignments[1].agent_id: \"ann\" is assigned twice");
  auto nobody = good_proposal();
  nobody["assignments"] = json::array();
  check(nobody, "assignments: names nobody, but 2 offers take part");
  auto no_role = good_proposal();
  no_role["assignments"] = {{{"agent_id", "ann"}}};
  check(no_role, "assignments[0].role: required field is missing");
  auto dangling = good_proposal();
  dangling["assignments"] = json::array({assigned("ann", "场地", {"bob"})});
  check(dangling, "assignments[0].dependencies: \"bob\" is not an assigned agent");
  auto summary = good_proposal();
  summary.erase("summary");
  check(summary, "summary: required field is missing");
  auto gap = good_proposal();
  gap["gaps"] = {{{"description", ""}}};
  check(gap, "gaps[0].description: must not be empty");
  channel_settings short_rounds;
  short_rounds.max_rounds = 1;
  check(good_proposal(), "version must be within 1..1, got 2", short_rounds);
}

} // namespace unit_actors_channel_prompts_test
