// Fuzzes what reads a model's answer: parse_reply in both wire formats, the tool-input
// checks, an LLM brain taking the body as the reply to its call, and the readers of the
// channel protocol's five prompt answers taking it as the model's text. Any body must
// be read or refused with a reason, never crash or throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "actors/agent/llm_brain.hpp"
#include "actors/channel/prompts.hpp"
#include "actors/coordinator/prompts.hpp"
#include "actors/llm/tools.hpp"
#include "actors/llm/validation.hpp"
#include "actors/llm/wire_format.hpp"
#include "tests/fuzz/json_mutator.hpp"

namespace {

using parley::actors::llm::provider_kind;

parley::messages::agent_profile seller() {
  parley::messages::agent_profile profile;
  profile.display_name = "Bob";
  profile.role = "freelancer";
  profile.preferences.max_auto_approve_amount = 100000;
  return profile;
}

parley::actors::agent::offer_context offer() {
  parley::actors::agent::offer_context x;
  x.negotiation_id = "neg_fuzz";
  x.incoming.amount = 80000;
  x.incoming.description = "Logo";
  return x;
}

/// Runs every tool input of `reply` through the checks the brain applies.
void check_tool_inputs(const parley::actors::llm::model_reply& reply) {
  const auto profile = seller();
  const auto incoming = offer().incoming;
  for (const auto& block : reply.content) {
    if (block.at("type") != "tool_use")
      continue;
    const auto& input = block.at("input");
    parley::actors::llm::check_evaluation(input, incoming, profile.preferences,
                                          parley::messages::bargaining_side::seller);
    parley::actors::llm::check_proposal(input, profile.preferences,
                                        parley::messages::bargaining_side::buyer);
  }
}

/// An LLM brain with the room's tools and a call in flight for an offer.
parley::actors::agent::llm_brain calling_brain(provider_kind provider) {
  parley::actors::agent::llm_brain_options options;
  options.provider = provider;
  parley::actors::agent::llm_brain brain{parley::messages::bargaining_side::seller,
                                         seller(), options};
  brain.set_tools(parley::actors::llm::agent_tools());
  brain.decide(offer());
  brain.next_call();
  return brain;
}

/// Answers a copy of the calling brain of `provider` with `body` (a copy, so
/// that every input starts from the same state).
void answer_call(provider_kind provider, const std::string& body) {
  static const auto anthropic = calling_brain(provider_kind::anthropic);
  static const auto openai = calling_brain(provider_kind::openai);
  auto brain = provider == provider_kind::openai ? openai : anthropic;
  brain.on_reply(body);
  brain.next_call();
}

/// Reads `text` as the answer to each of the channel protocol's five prompts.
void read_prompt_answers(const std::string& text) {
  using namespace parley::messages;
  namespace channel = parley::actors::channel;
  namespace coordinator = parley::actors::coordinator;
  static const std::vector<channel_profile> agents = {
      {"alice", "Alice", {"场地"}, "", true}, {"bob", "Bob", {"嘉宾"}, "", false}};
  static const channel_settings settings;
  static const auto round = [] {
    offer_response ann;
    ann.agent_id = "ann";
    ann.contribution = "c";
    auto cat = ann;
    cat.agent_id = "cat";
    cat.decision = offer_decision::conditional;
    return channel::aggregation_input{"collab-1", "d-1", "聚会", 1, 2, {ann, cat}, 0, {}, {}};
  }();
  coordinator::read_understanding(text, "聚会", {"场地"});
  coordinator::read_selection(text, agents, settings, selection_source::matched, 1);
  demand_offer offer;
  offer.channel_id = "collab-1";
  channel::read_offer_response(text, agents[0], offer, "m-1");
  proposal_review review;
  review.channel_id = "collab-1";
  channel::read_feedback(text, agents[0], review, "m-2");
  channel::read_proposal(text, round, settings);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  for (auto provider : {provider_kind::anthropic, provider_kind::openai}) {
    check_tool_inputs(parley::actors::llm::parse_reply(provider, body));
    answer_call(provider, body);
  }
  read_prompt_answers(body);
  return 0;
}
