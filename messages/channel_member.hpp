#pragma once

// What a channel member is built from: the agent's profile and the brain that answers
// its channels' demands and proposals (docs/protocols/channels.md, "Member brains"):
// the rule and script brains without a model, deterministic, for scenarios, tests and
// load tests (actors/channel/member_brain.hpp); the LLM brain with prompts 3 and 5
// (actors/channel/llm_member.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"

#include "messages/demand.hpp"
#include "messages/fields.hpp"

namespace parley::messages {

/// Which brain answers for a channel member.
enum class member_brain_kind : std::uint8_t {
  /// Takes part when it has a capability the demand asks for, negotiates the
  /// proposal before `accept_from_round` and accepts it from then on.
  rule,
  /// Answers each round as its script says.
  script,
  /// Asks the world's LLM (prompts 3 and 5), with the fallback answers of
  /// docs/protocols/channels.md, "Member brains".
  llm,
};

/// What a scripted member answers a round's demand with: one of the offer's
/// decisions, or nothing at all (the channel's response timeout decides).
enum class scripted_offer : std::uint8_t { participate, decline, conditional, silent };

/// What a scripted member answers a round's proposal with: one of the
/// feedback types, or nothing (the feedback timeout decides).
enum class scripted_feedback : std::uint8_t { accept, negotiate, withdraw, silent };

/// A scripted member's answers for one round of a channel.
struct member_round {
  scripted_offer offer = scripted_offer::participate;
  /// Empty: the profile's (see member_brain.hpp).
  std::string contribution;
  std::vector<std::string> conditions;
  /// For a decline.
  std::string decline_reason;
  scripted_feedback feedback = scripted_feedback::accept;
  /// For a negotiate.
  std::string adjustment_request;

  friend bool operator==(const member_round& x, const member_round& y) {
    return x.offer == y.offer && x.contribution == y.contribution &&
           x.conditions == y.conditions && x.decline_reason == y.decline_reason &&
           x.feedback == y.feedback && x.adjustment_request == y.adjustment_request;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, member_round& x) {
  return f(caf::meta::type_name("member_round"), optional_field("offer", x.offer),
           optional_field("contribution", x.contribution),
           optional_field("conditions", x.conditions),
           optional_field("decline_reason", x.decline_reason),
           optional_field("feedback", x.feedback),
           optional_field("adjustment_request", x.adjustment_request));
}

/// Everything needed to spawn a channel member: whom it acts for and how it
/// answers.
struct channel_member_spec {
  channel_profile profile;
  member_brain_kind brain = member_brain_kind::rule;
  /// Rule brain: the first round whose proposal it accepts (1: at once).
  std::int32_t accept_from_round = 1;
  /// Script brain: round r's answers are `script[r - 1]`; past its end the
  /// member stays silent.
  std::vector<member_round> script;

  friend bool operator==(const channel_member_spec& x, const channel_member_spec& y) {
    return x.profile.agent_id == y.profile.agent_id &&
           x.profile.display_name == y.profile.display_name &&
           x.profile.capabilities == y.profile.capabilities &&
           x.profile.description == y.profile.description &&
           x.profile.active == y.profile.active && x.brain == y.brain &&
           x.accept_from_round == y.accept_from_round && x.script == y.script;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_member_spec& x) {
  return f(caf::meta::type_name("channel_member_spec"), field("profile", x.profile),
           optional_field("brain", x.brain),
           optional_field("accept_from_round", x.accept_from_round),
           optional_field("script", x.script));
}

/// Returns an empty string if `x` can be spawned (an agent id, and
/// accept_from_round >= 1), otherwise why not.
std::string validate(const channel_member_spec& x);

std::string to_string(member_brain_kind x);
bool from_string(const std::string& text, member_brain_kind& x);
std::string to_string(scripted_offer x);
bool from_string(const std::string& text, scripted_offer& x);
std::string to_string(scripted_feedback x);
bool from_string(const std::string& text, scripted_feedback& x);

} // namespace parley::messages
