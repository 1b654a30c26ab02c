#include "actors/coordinator/prompts.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include "actors/coordinator/rules.hpp"

namespace unit_actors_coordinator_prompts_test {

using namespace parley::actors::coordinator;
using namespace parley::messages;
using nlohmann::json;

namespace {

const std::string chinese_demand = "我想在北京办一场AI主题聚会，需要场地和嘉宾";
const std::string english_demand = "I want to host an AI meetup in Berlin; I need a "
                                   "venue and speakers";
const std::vector<std::string> vocabulary = {"场地提供", "演讲嘉宾", "venue",
                                             "speakers"};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<channel_profile> registry() {
  return {{"alice", "Alice", {"场地提供"}, "北京的活动场地", true},
          {"bob", "Bob", {"演讲嘉宾"}, "AI 讲者", true},
          {"carol", "Carol", {"venue"}, "event space in Berlin", true},
          {"dave", "Dave", {"catering"}, "food", true},
          {"erin", "Erin", {"speakers"}, "retired", false}};
}

channel_settings limits(std::int32_t most = 10) {
  channel_settings s;
  s.max_candidates = most;
  return s;
}

demand_understanding understood(const std::string& surface) {
  demand_understanding x;
  x.surface_demand = surface;
  x.capability_tags = {"场地提供", "演讲嘉宾"};
  x.confidence = confidence_level::high;
  return x;
}

json good_understanding() {
  return {{"surface_demand", "想在北京办一场AI主题聚会"},
          {"deep_understanding",
           {{"motivation", "上个月参加聚会后很兴奋"},
            {"likely_preferences", {"轻松氛围", "质量优先"}}}},
          {"capability_tags", {"场地提供", "演讲嘉宾", "场地提供"}},
          {"context", {{"location", "北京"}}},
          {"confidence", "high"}};
}

json pick_of(std::string id, int score) {
  return {{"agent_id", std::move(id)}, {"reason", "因为"}, {"relevance_score", score}};
}

json selection_answer(std::vector<json> definitely, std::vector<json> possibly = {}) {
  return {{"analysis", "两位相关"},
          {"definitely_related", definitely},
          {"possibly_related", possibly}};
}

std::vector<std::string> ids(const candidate_selection& x) {
  std::vector<std::string> result;
  for (const auto& c : x.candidates)
    result.push_back(c.agent_id);
  return result;
}

} // namespace

TEST_CASE("prompt 1 asks in the demand's language and quotes it byte for byte",
          "[unit][coordinator]") {
  auto zh = understanding_prompt(chinese_demand, vocabulary);
  CHECK(contains(zh.system, "只返回一个 JSON 对象"));
  CHECK(contains(zh.user, "用户的需求：\n" + chinese_demand + "\n"));
  CHECK(contains(zh.user, "\"场地提供\""));
  CHECK(contains(zh.user, "\"confidence\": \"high | medium | low\""));
  auto en = understanding_prompt(english_demand, vocabulary);
  CHECK(contains(en.system, "Answer with one JSON object"));
  CHECK(contains(en.user, "The user's demand:\n" + english_demand + "\n"));
  CHECK_FALSE(contains(en.user, "用户的需求"));
}

TEST_CASE("a good answer to prompt 1 is the understanding", "[unit][coordinator]") {
  auto answer = "```json\n" + good_understanding().dump() + "\n```";
  auto x = read_understanding(answer, chinese_demand, vocabulary);
  REQUIRE_FALSE(x.fallback());
  CHECK(x.value.surface_demand == "想在北京办一场AI主题聚会");
  CHECK(x.value.capability_tags == std::vector<std::string>{"场地提供", "演讲嘉宾"});
  CHECK(json::parse(x.value.context.text) == json{{"location", "北京"}});
  CHECK(json::parse(x.value.deep_understanding.text).at("motivation") ==
        "上个月参加聚会后很兴奋");
  CHECK(x.value.confidence == confidence_level::high);
  CHECK_FALSE(x.value.fallback);
  auto extra = good_understanding();
  extra["fallback"] = true;
  extra["note"] = "extra keys are ignored";
  auto y = read_understanding("Here you go: " + extra.dump(), english_demand, {});
  REQUIRE_FALSE(y.fallback());
  CHECK_FALSE(y.value.fallback);
}

TEST_CASE("an unusable answer to prompt 1 gives the marked rule understanding",
          "[unit][coordinator]") {
  auto expected = fallback_understanding(chinese_demand, vocabulary);
  auto check = [&](const std::string& answer, const std::string& reason) {
    auto x = read_understanding(answer, chinese_demand, vocabulary);
    CHECK(x.fallback_reason == reason);
    CHECK(x.value == expected);
    CHECK(x.value.fallback);
  };
  check("", "the answer is empty");
  check("抱歉，我无法理解", "the answer holds no JSON object");
  auto wrong_enum = good_understanding();
  wrong_enum["confidence"] = "very";
  check(wrong_enum.dump(),
        "confidence: expected one of high | medium | low, got \"very\"");
  auto missing = good_understanding();
  missing.erase("surface_demand");
  check(missing.dump(), "surface_demand: required field is missing");
  auto blank = good_understanding();
  blank["surface_demand"] = " ";
  check(blank.dump(), "surface_demand: must not be empty");
  auto bad_tag = good_understanding();
  bad_tag["capability_tags"] = {"场地提供", ""};
  check(bad_tag.dump(), "capability_tags[1]: must not be empty");
  auto bad_context = good_understanding();
  bad_context["context"] = "北京";
  check(bad_context.dump(), "context: expected a JSON object, got a string");
}

TEST_CASE("prompt 2 lists the active agents in the demand's language",
          "[unit][coordinator]") {
  auto zh = selection_prompt(understood(chinese_demand), registry(), limits(4));
  CHECK(contains(zh.system, "必须返回至少 1 个候选人"));
  CHECK(contains(zh.user, chinese_demand));
  CHECK(contains(zh.user, "\"agent_id\": \"alice\""));
  CHECK(contains(zh.user, "北京的活动场地"));
  CHECK_FALSE(contains(zh.user, "\"erin\"")); // inactive
  CHECK(contains(zh.user, "至多 4 个"));
  auto en = selection_prompt(understood(english_demand), registry(), limits(4));
  CHECK(contains(en.system, "Name at least 1 candidate"));
  CHECK(contains(en.user, "at most 4 agents"));
}

TEST_CASE("the retry prompt says why and relaxes the match", "[unit][coordinator]") {
  auto demand = understood(chinese_demand);
  auto first = selection_prompt(demand, registry(), limits());
  auto retry = selection_retry_prompt(demand, registry(), limits(),
                                      "the answer names no candidate");
  CHECK(retry.user == first.user);
  CHECK(contains(retry.system, first.system));
  CHECK(
      contains(retry.system, "你上一次的回答无法使用：the answer names no candidate"));
  CHECK(contains(retry.system, "放宽标准"));
  auto en =
      selection_retry_prompt(understood(english_demand), registry(), limits(), "why");
  CHECK(contains(en.system, "Your previous answer could not be used: why"));
  CHECK(contains(en.system, "relax the match"));
}

TEST_CASE("a good answer to prompt 2 is the ranked selection", "[unit][coordinator]") {
  auto answer = selection_answer({pick_of("bob", 80), pick_of("alice", 95)},
                                 {pick_of("dave", 80)});
  auto x =
      read_selection(answer.dump(), registry(), limits(), selection_source::matched, 7);
  REQUIRE_FALSE(x.fallback());
  CHECK(ids(x.value) == std::vector<std::string>{"alice", "bob", "dave"});
  CHECK(x.value.candidates[0].display_name == "Alice");
  CHECK(x.value.candidates[0].reason == "因为");
  CHECK(x.value.candidates[0].relevance_score == 95);
  CHECK(x.value.analysis == "两位相关");
  CHECK(x.value.source == selection_source::matched);
  CHECK_FALSE(x.value.fallback());
  auto retried = read_selection(selection_answer({pick_of("carol", 30)}).dump(),
                                registry(), limits(), selection_source::relaxed, 7);
  REQUIRE_FALSE(retried.fallback());
  CHECK(retried.value.source == selection_source::relaxed);
}

TEST_CASE("an unusable answer to prompt 2 gives the marked fallback candidates",
          "[unit][coordinator]") {
  auto check = [](const std::string& answer, const std::string& reason,
                  channel_settings settings = limits()) {
    auto count = static_cast<std::size_t>(std::min(settings.max_candidates, 3));
    auto expected = fallback_candidates(registry(), count, 7);
    auto x = read_selection(answer, registry(), settings, selection_source::matched, 7);
    CHECK(x.fallback_reason == reason);
    CHECK(x.value.source == selection_source::fallback);
    CHECK(x.value.fallback());
    CHECK(x.value.analysis == "系统繁忙，使用默认筛选");
    CHECK(x.value.candidates == expected);
  };
  check("no", "the answer holds no JSON object");
  check(selection_answer({}).dump(),
        "the answer names no candidate; at least 1 is required");
  check(json{{"analysis", "无"}}.dump(),
        "the answer names no candidate; at least 1 is required");
  check(selection_answer({pick_of("zoe", 50)}).dump(),
        "definitely_related[0].agent_id: \"zoe\" is not an active registered agent");
  check(selection_answer({pick_of("erin", 50)}).dump(),
        "definitely_related[0].agent_id: \"erin\" is not an active registered agent");
  check(selection_answer({pick_of("alice", 50)}, {pick_of("alice", 20)}).dump(),
        "possibly_related[0].agent_id: \"alice\" is named twice");
  check(selection_answer({pick_of("alice", 101)}).dump(),
        "definitely_related[0].relevance_score: must be within 0..100, got 101");
  check(selection_answer({pick_of("alice", -1)}).dump(),
        "definitely_related[0].relevance_score: must be within 0..100, got -1");
  check(selection_answer({{{"agent_id", "alice"}}}).dump(),
        "definitely_related[0].relevance_score: required field is missing");
  check(selection_answer({pick_of("alice", 90), pick_of("bob", 80)}).dump(),
        "the answer names 2 candidates; at most 1 are allowed", limits(1));
  check(json{{"definitely_related", "alice"}}.dump(),
        "definitely_related: expected an array, got a string");
}

TEST_CASE("the fallback keeps to max_candidates and fallback_candidates",
          "[unit][coordinator]") {
  auto settings = limits(2);
  auto x = read_selection("", registry(), settings, selection_source::relaxed, 1);
  CHECK(x.fallback());
  CHECK(x.value.candidates.size() == 2);
  settings.max_candidates = 10;
  settings.fallback_candidates = 10;
  CHECK(read_selection("", registry(), settings, selection_source::relaxed, 1)
            .value.candidates.size() == 4); // the active agents
}

} // namespace unit_actors_coordinator_prompts_test
