// A property of the channel protocol's five prompt readers: whatever the model
// answers, each returns a value to use, either the model's (valid) or the
// fallback with a reason; none throws or crashes.
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/channel/prompts.hpp"
#include "actors/coordinator/prompts.hpp"

namespace unit_actors_llm_prompt_answers_test {

using namespace parley::messages;
namespace channel = parley::actors::channel;
namespace coordinator = parley::actors::coordinator;

namespace {

const std::vector<std::string> fragments = {"{",
                                            "}",
                                            "[",
                                            "]",
                                            "\"",
                                            ":",
                                            ",",
                                            " ",
                                            "\n",
                                            "```json\n",
                                            "\n```",
                                            "null",
                                            "true",
                                            "-1",
                                            "0",
                                            "50",
                                            "101",
                                            "1e400",
                                            "18446744073709551616",
                                            "2.5",
                                            "\"\\u0000\"",
                                            "\"\\ud800\"",
                                            "\xFF",
                                            "\xE8\x81",
                                            "聚会",
                                            "\"alice\"",
                                            "\"ann\"",
                                            "\"cat\"",
                                            "\"high\"",
                                            "\"accept\"",
                                            "\"negotiate\"",
                                            "\"offer\"",
                                            "\"participate\"",
                                            "\"agent_id\"",
                                            "\"relevance_score\"",
                                            "\"definitely_related\"",
                                            "\"confidence\"",
                                            "\"surface_demand\"",
                                            "\"capability_tags\"",
                                            "\"context\"",
                                            "\"decision\"",
                                            "\"response_type\"",
                                            "\"contribution\"",
                                            "\"reasoning\"",
                                            "\"feedback_type\"",
                                            "\"summary\"",
                                            "\"assignments\"",
                                            "\"role\"",
                                            "\"dependencies\"",
                                            "\"gaps\"",
                                            "\"negotiation_points\"",
                                            "\"timeline\""};

const std::vector<std::string> good_answers = {
    R"({"surface_demand":"聚会","capability_tags":["场地"],"confidence":"high"})",
    R"({"definitely_related":[{"agent_id":"alice","relevance_score":90}]})",
    R"({"response_type":"offer","decision":"participate","contribution":"c",)"
    R"("reasoning":"r","confidence":80})",
    R"({"feedback_type":"accept","reasoning":"r"})",
    R"({"summary":"s","assignments":[{"agent_id":"ann","role":"r",)"
    R"("dependencies":["cat"]},{"agent_id":"cat","role":"r"}],"confidence":"low"})"};

/// A random answer: fragments strung together, or a good answer with a few
/// bytes changed.
std::string random_answer(std::mt19937& random) {
  std::string text;
  if (random() % 2 == 0) {
    auto n = random() % 40;
    for (std::size_t i = 0; i < n; ++i)
      text += fragments[random() % fragments.size()];
    return text;
  }
  text = good_answers[random() % good_answers.size()];
  for (auto edits = random() % 4; edits > 0; --edits) {
    auto at = random() % (text.size() + 1);
    switch (random() % 3) {
    case 0:
      text.erase(at, 1 + random() % 3);
      break;
    case 1:
      text.insert(at, fragments[random() % fragments.size()]);
      break;
    default:
      if (at < text.size())
        text[at] = static_cast<char>(random() % 256);
    }
  }
  return text;
}

/// Whether `x` is a value to use: the model's and valid, or the marked
/// fallback with a reason.
template <class T, class Valid, class Marked>
bool usable(const parley::actors::llm::outcome<T>& x, Valid valid, Marked marked) {
  return x.fallback() ? marked(x.value) : valid(x.value);
}

} // namespace

TEST_CASE("every answer gives a value to use", "[unit][llm]") {
  std::vector<channel_profile> agents = {{"alice", "Alice", {"场地"}, "", true},
                                         {"bob", "Bob", {"嘉宾"}, "", true}};
  demand_offer offer;
  offer.channel_id = "collab-1";
  offer.surface_demand = "聚会";
  proposal_review review;
  review.channel_id = "collab-1";
  offer_response ann;
  ann.agent_id = "ann";
  ann.contribution = "c";
  auto cat = ann;
  cat.agent_id = "cat";
  cat.decision = offer_decision::conditional;
  channel::aggregation_input in{"collab-1", "d-1", "聚会", 1, 2, {ann, cat}, 0, {}, {}};
  channel_settings settings;
  std::mt19937 random{20260123};
  for (int i = 0; i < 3000; ++i) {
    auto answer = random_answer(random);
    INFO(answer);
    auto understanding = coordinator::read_understanding(answer, "聚会", {"场地"});
    REQUIRE(usable(
        understanding,
        [](const demand_understanding& x) {
          return !x.fallback && !x.surface_demand.empty();
        },
        [](const demand_understanding& x) { return x.fallback; }));
    auto selection = coordinator::read_selection(answer, agents, settings,
                                                 selection_source::matched, 1);
    REQUIRE(usable(
        selection,
        [](const candidate_selection& x) {
          return !x.fallback() && !x.candidates.empty() && x.candidates.size() <= 10;
        },
        [](const candidate_selection& x) {
          return x.fallback() && x.candidates.size() == 2;
        }));
    auto response = channel::read_offer_response(answer, agents[0], offer, "m-1");
    REQUIRE(usable(
        response, [](const offer_response& x) { return validate(x).empty(); },
        [](const offer_response& x) { return x.confidence == 50; }));
    auto feedback = channel::read_feedback(answer, agents[0], review, "m-2");
    REQUIRE(usable(
        feedback, [](const proposal_feedback& x) { return validate(x).empty(); },
        [](const proposal_feedback& x) {
          return x.feedback_type == feedback_type::accept;
        }));
    auto proposal = channel::read_proposal(answer, in, settings);
    REQUIRE(usable(
        proposal,
        [&](const channel_proposal& x) {
          return validate(x, settings.max_rounds).empty();
        },
        [&](const channel_proposal& x) {
          // The rule's merge, marked as a fallback
          // (docs/protocols/channels.md, "Aggregation").
          auto merged = channel::aggregate(in, settings);
          merged.fallback = true;
          return x == merged;
        }));
  }
}

} // namespace unit_actors_llm_prompt_answers_test
