#include "actors/coordinator/rules.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_coordinator_rules_test {

using namespace parley::actors::coordinator;
using namespace parley::messages;

namespace {

channel_profile agent(std::string id, std::vector<std::string> capabilities,
                      std::string description = {}, bool active = true) {
  return {id, "name of " + id, std::move(capabilities), std::move(description), active};
}

channel_profile inactive(std::string id, std::vector<std::string> capabilities) {
  return agent(std::move(id), std::move(capabilities), {}, false);
}

demand_understanding tagged(std::vector<std::string> tags,
                            std::string surface = "a demand") {
  demand_understanding x;
  x.surface_demand = std::move(surface);
  x.capability_tags = std::move(tags);
  return x;
}

/// Selection limits: at most `most` candidates, `fallback` drawn when
/// nothing matched.
parley::messages::channel_settings limits(std::int32_t most, std::int32_t fallback) {
  parley::messages::channel_settings s;
  s.max_candidates = most;
  s.fallback_candidates = fallback;
  return s;
}

candidate_selection pick(const demand_understanding& demand,
                         const std::vector<channel_profile>& agents,
                         std::uint64_t seed = 42,
                         parley::messages::channel_settings limits = {}) {
  candidate_selection out;
  auto refused = select_candidates(demand, agents, seed, out, limits);
  REQUIRE_FALSE(refused);
  return out;
}

/// One field of every candidate, in order.
template <class T>
std::vector<T> each(const candidate_selection& x, T candidate::*member) {
  std::vector<T> result;
  for (const auto& c : x.candidates)
    result.push_back(c.*member);
  return result;
}

std::vector<std::string> ids(const candidate_selection& x) {
  return each(x, &candidate::agent_id);
}

std::vector<std::int32_t> scores(const candidate_selection& x) {
  return each(x, &candidate::relevance_score);
}

/// The original specification's own example
/// (docs/protocols/channels.md, "Understanding") and a registry that can serve it.
const std::string seed_demand = "我想在北京办一场AI主题聚会，需要场地和嘉宾";

std::vector<channel_profile> event_agents() {
  return {agent("venue_bj", {"场地提供"}), agent("speaker", {"演讲嘉宾"}),
          agent("all_in_one", {"场地提供", "演讲嘉宾", "活动策划"}),
          agent("planner", {"活动策划"}),
          inactive("old_venue", {"场地提供", "演讲嘉宾"})};
}

} // namespace

TEST_CASE("validate: an empty or blank raw_input is E001", "[unit][coordinator]") {
  for (std::string blank : {"", "   ", "\t\n", "\xE3\x80\x80 \xE3\x80\x80"}) {
    auto refused = validate_demand(blank);
    REQUIRE(refused);
    CHECK(refused->code == error_code::invalid_request);
    CHECK(refused->message == "raw_input must not be empty");
  }
  CHECK_FALSE(validate_demand("需要场地"));
  CHECK_FALSE(validate_demand(" x "));
}

TEST_CASE("validate: raw_input over 8192 bytes is E001", "[unit][coordinator]") {
  CHECK(max_demand_bytes == 8192);
  CHECK_FALSE(validate_demand(std::string(8192, 'a')));
  auto refused = validate_demand(std::string(8193, 'a'));
  REQUIRE(refused);
  CHECK(refused->code == error_code::invalid_request);
  CHECK(refused->message == "raw_input must be at most 8192 bytes long, got 8193");
  // Bytes, not characters: 2731 Chinese characters are 8193 bytes.
  std::string chinese;
  for (int i = 0; i < 2731; ++i)
    chinese += "场";
  CHECK(validate_demand(chinese));
}

TEST_CASE("vocabulary: every registered tag once, sorted, inactive agents too",
          "[unit][coordinator]") {
  CHECK(capability_vocabulary(event_agents()) ==
        std::vector<std::string>{"场地提供", "活动策划", "演讲嘉宾"});
  CHECK(capability_vocabulary(
            {agent("a", {"venue", " ", ""}), inactive("b", {"Venue"})}) ==
        std::vector<std::string>{"Venue", "venue"});
}

TEST_CASE("understand: a Chinese demand names the tags it shares words with",
          "[unit][coordinator]") {
  auto x = understand("  " + seed_demand + "\n", capability_vocabulary(event_agents()));
  CHECK(x.surface_demand == seed_demand);
  // 场地 names 场地提供 and 嘉宾 names 演讲嘉宾; nothing names 活动策划.
  CHECK(x.capability_tags == std::vector<std::string>{"场地提供", "演讲嘉宾"});
  CHECK(x.confidence == confidence_level::high);
  CHECK(x.deep_understanding.text == "{}");
  CHECK(x.context.text == "{}");
  CHECK_FALSE(x.fallback);
}

TEST_CASE("understand: an English demand names the tags it shares words with",
          "[unit][coordinator]") {
  std::vector<std::string> vocabulary{"AI research", "catering", "public speaking",
                                      "venue"};
  auto x =
      understand("I need a Venue and a keynote speaker for an AI meetup", vocabulary);
  CHECK(x.capability_tags == std::vector<std::string>{"AI research", "venue"});
  CHECK(x.confidence == confidence_level::high);
  CHECK(understand("We need catering", vocabulary).confidence ==
        confidence_level::medium);
  auto none = understand("a keynote speaker", vocabulary);
  CHECK(none.capability_tags.empty());
  CHECK(none.confidence == confidence_level::low);
}

TEST_CASE("understand: the fallback is the rule reading, low and marked",
          "[unit][coordinator]") {
  auto vocabulary = capability_vocabulary(event_agents());
  auto x = fallback_understanding(seed_demand, vocabulary);
  CHECK(x.capability_tags == std::vector<std::string>{"场地提供", "演讲嘉宾"});
  CHECK(x.confidence == confidence_level::low);
  CHECK(to_string(x.confidence) == "low");
  CHECK(x.fallback);
  auto expected = understand(seed_demand, vocabulary);
  expected.confidence = confidence_level::low;
  expected.fallback = true;
  CHECK(x == expected);
}

TEST_CASE("select: the Chinese example demand, ranked by the share of tags offered",
          "[unit][coordinator]") {
  auto agents = event_agents();
  auto x = pick(understand(seed_demand, capability_vocabulary(agents)), agents);
  CHECK(x.source == selection_source::matched);
  CHECK_FALSE(x.fallback());
  CHECK(ids(x) == std::vector<std::string>{"all_in_one", "speaker", "venue_bj"});
  CHECK(scores(x) == std::vector<std::int32_t>{100, 50, 50});
  CHECK(x.candidates[0].reason == "offers 场地提供, 演讲嘉宾");
  CHECK(x.candidates[0].display_name == "name of all_in_one");
  CHECK(x.candidates[1].reason == "offers 演讲嘉宾");
  CHECK(x.analysis == "3 of 4 active agents offer the demand's capability tags");
}

TEST_CASE("select: an English demand, and tags compare with ASCII case ignored",
          "[unit][coordinator]") {
  std::vector<channel_profile> agents{agent("hall", {"Venue"}),
                                      agent("chef", {"catering"}),
                                      agent("lab", {"AI research", "venue"})};
  auto demand =
      understand("I need a venue and a researcher", capability_vocabulary(agents));
  CHECK(demand.capability_tags == std::vector<std::string>{"Venue", "venue"});
  auto x = pick(demand, agents);
  CHECK(ids(x) == std::vector<std::string>{"hall", "lab"});
  CHECK(scores(x) == std::vector<std::int32_t>{100, 100});
  CHECK(x.candidates[0].reason == "offers Venue, venue");
}

TEST_CASE("select: at most max_candidates of many, scores 0..100, sorted",
          "[unit][coordinator]") {
  // a01..a15: the odd ones offer both tags (100), the even ones one (50).
  std::vector<channel_profile> agents;
  for (int i = 1; i <= 15; ++i) {
    auto id = std::string{i < 10 ? "a0" : "a"} + std::to_string(i);
    agents.push_back(i % 2 == 1 ? agent(id, {"catering", "venue"})
                                : agent(id, {"venue"}));
  }
  auto x = pick(tagged({"venue", "catering"}), agents);
  CHECK(ids(x) == std::vector<std::string>{"a01", "a03", "a05", "a07", "a09", "a11",
                                           "a13", "a15", "a02", "a04"});
  CHECK(scores(x) ==
        std::vector<std::int32_t>{100, 100, 100, 100, 100, 100, 100, 100, 50, 50});
  CHECK(x.analysis == "15 of 15 active agents offer the demand's capability tags");
  auto three = pick(tagged({"venue", "catering"}), agents, 42, limits(3, 3));
  CHECK(ids(three) == std::vector<std::string>{"a01", "a03", "a05"});
}

TEST_CASE("select: relevance is the rounded share of the demand's tags",
          "[unit][coordinator]") {
  std::vector<channel_profile> agents{agent("one", {"a1"}), agent("two", {"a1", "a2"}),
                                      agent("all", {"a1", "a2", "a3"})};
  auto x = pick(tagged({"a1", "a2", "a3"}), agents);
  CHECK(ids(x) == std::vector<std::string>{"all", "two", "one"});
  CHECK(scores(x) == std::vector<std::int32_t>{100, 67, 33});
}

TEST_CASE("select: inactive agents are never picked", "[unit][coordinator]") {
  std::vector<channel_profile> agents{inactive("best", {"venue", "catering"}),
                                      agent("ok", {"venue"}),
                                      agent("other", {"music"})};
  auto x = pick(tagged({"venue", "catering"}), agents);
  CHECK(ids(x) == std::vector<std::string>{"ok"});
  CHECK(scores(x) == std::vector<std::int32_t>{50});
  // Only the inactive agent matches: the retry and the fallback skip it too.
  std::vector<channel_profile> lone{inactive("best", {"venue"}),
                                    agent("other", {"music"})};
  auto y = pick(tagged({"venue"}, "venue"), lone);
  CHECK(y.source == selection_source::fallback);
  CHECK(ids(y) == std::vector<std::string>{"other"});
}

TEST_CASE("select: nothing matched, the relaxed retry finds stems and descriptions",
          "[unit][coordinator]") {
  std::vector<channel_profile> agents{agent("orator", {"public speaking"}),
                                      agent("studio", {"摄影"}, "专业婚礼摄影师，北京"),
                                      agent("chef", {"catering"})};
  auto english = understand("a keynote speaker", capability_vocabulary(agents));
  REQUIRE(english.capability_tags.empty());
  auto x = pick(english, agents);
  CHECK(x.source == selection_source::relaxed);
  CHECK_FALSE(x.fallback());
  CHECK(ids(x) == std::vector<std::string>{"orator"});
  CHECK(scores(x) == std::vector<std::int32_t>{10});
  CHECK(x.candidates[0].reason == "shares speak with the demand (relaxed match)");
  CHECK(x.analysis == "no active agent offers the demand's capability tags; "
                      "1 of 3 active agents share terms with it");

  auto chinese = understand("找人在北京拍婚礼", capability_vocabulary(agents));
  REQUIRE(chinese.capability_tags.empty());
  auto y = pick(chinese, agents);
  CHECK(y.source == selection_source::relaxed);
  CHECK(ids(y) == std::vector<std::string>{"studio"});
  CHECK(scores(y) == std::vector<std::int32_t>{20});
  CHECK(y.candidates[0].reason == "shares 北京, 婚礼 with the demand (relaxed match)");
}

TEST_CASE("select: a relaxed match scores 10 a shared term, at most 50",
          "[unit][coordinator]") {
  std::vector<channel_profile> agents{
      agent("wide", {}, "venue catering music lights stage sound"),
      agent("narrow", {}, "venue")};
  auto x = pick(tagged({}, "venue catering music lights stage sound"), agents);
  CHECK(ids(x) == std::vector<std::string>{"wide", "narrow"});
  CHECK(scores(x) == std::vector<std::int32_t>{50, 10});
  CHECK(x.candidates[0].reason == "shares cater, light, music, sound, stage and 1 more "
                                  "with the demand (relaxed match)");
}

TEST_CASE("select: neither pass matched, 3 random active agents, reproducibly",
          "[unit][coordinator]") {
  std::vector<channel_profile> agents{
      agent("a1", {"venue"}),    inactive("a2", {"venue"}), agent("a3", {"music"}),
      agent("a4", {"catering"}), inactive("a5", {"music"}), agent("a6", {"lights"})};
  auto demand = understand("xyzzy plugh", capability_vocabulary(agents));
  auto x = pick(demand, agents, 42);
  CHECK(x.source == selection_source::fallback);
  CHECK(x.fallback());
  CHECK(ids(x) == std::vector<std::string>{"a1", "a4", "a6"});
  CHECK(scores(x) == std::vector<std::int32_t>{0, 0, 0});
  CHECK(x.candidates[0].reason == "fallback: drawn at random among the active agents");
  CHECK(x.analysis ==
        "nothing matched the demand; 3 of 4 active agents drawn at random");
  // The same seed draws the same agents whatever the registry's order; another
  // seed draws others.
  std::vector<channel_profile> reversed{agents.rbegin(), agents.rend()};
  CHECK(pick(demand, reversed, 42) == x);
  CHECK(ids(pick(demand, agents, 7)) == std::vector<std::string>{"a3", "a4", "a6"});
}

TEST_CASE("select: the fallback takes every active agent when fewer than 3",
          "[unit][coordinator]") {
  std::vector<channel_profile> agents{agent("a1", {"venue"}), inactive("a2", {"music"}),
                                      agent("a3", {"music"})};
  auto x = pick(tagged({}, "xyzzy"), agents);
  CHECK(x.fallback());
  CHECK(ids(x) == std::vector<std::string>{"a1", "a3"});
  // Never more than max_candidates, never fewer than one.
  CHECK(pick(tagged({}, "xyzzy"), agents, 42, limits(1, 3)).candidates.size() == 1);
  CHECK(pick(tagged({}, "xyzzy"), agents, 42, limits(0, 0)).candidates.size() == 1);
}

TEST_CASE("select: no agent registered, or none active, is E005",
          "[unit][coordinator]") {
  candidate_selection out;
  auto none = select_candidates(tagged({"venue"}), {}, 42, out);
  REQUIRE(none);
  CHECK(none->code == error_code::no_candidates);
  CHECK(to_code(none->code) == "E005");
  CHECK(none->message == "no agents are registered: nobody can take up the demand");
  auto asleep = select_candidates(
      tagged({"venue"}), {inactive("a1", {"venue"}), inactive("a2", {})}, 42, out);
  REQUIRE(asleep);
  CHECK(asleep->code == error_code::no_candidates);
  CHECK(asleep->message ==
        "none of the 2 registered agents is active: nobody can take up the demand");
  CHECK(out.candidates.empty());
}

} // namespace unit_actors_coordinator_rules_test
