#include "actors/channel/member_brain.hpp"

#include <algorithm>
#include <utility>

#include "messages/channel_messages.hpp"

namespace parley::actors::channel {

using messages::feedback_type;
using messages::offer_decision;
using messages::scripted_feedback;
using messages::scripted_offer;

namespace {

constexpr const char* offer_kind = "offer";
constexpr const char* feedback_kind = "feedback";

const messages::member_round* step_of(const messages::channel_member_spec& spec,
                                      std::int32_t round) {
  if (round < 1 || static_cast<std::size_t>(round) > spec.script.size())
    return nullptr;
  return &spec.script[static_cast<std::size_t>(round) - 1];
}

} // namespace

std::string member_message_id(const std::string& channel_id,
                              const std::string& agent_id, std::int32_t round,
                              const char* kind) {
  auto r = std::to_string(round);
  std::string id;
  id.reserve(channel_id.size() + agent_id.size() + r.size() + 13);
  id += channel_id;
  id += ':';
  id += agent_id;
  id += ":r";
  id += r;
  id += ':';
  id += kind;
  return id;
}

member_brain::member_brain(messages::channel_member_spec spec)
    : spec_(std::move(spec)),
      name_(spec_.profile.display_name.empty() ? spec_.profile.agent_id
                                               : spec_.profile.display_name) {}

const std::string* member_brain::matching(const std::vector<std::string>& tags) const {
  for (const auto& c : spec_.profile.capabilities)
    if (std::find(tags.begin(), tags.end(), c) != tags.end())
      return &c;
  return nullptr;
}

std::string member_brain::contribution_for(const std::string& capability) const {
  if (!spec_.profile.description.empty())
    return spec_.profile.description;
  return name_ + " provides " + capability;
}

messages::offer_response
member_brain::offer_base(const messages::demand_offer& x) const {
  messages::offer_response y;
  y.message_id =
      member_message_id(x.channel_id, spec_.profile.agent_id, x.round, offer_kind);
  y.channel_id = x.channel_id;
  y.agent_id = spec_.profile.agent_id;
  y.display_name = name_;
  y.confidence = std::clamp(x.match_score, 0, 100);
  return y;
}

messages::proposal_feedback
member_brain::feedback_base(const messages::proposal_review& x) const {
  messages::proposal_feedback y;
  y.message_id =
      member_message_id(x.channel_id, spec_.profile.agent_id, x.round, feedback_kind);
  y.channel_id = x.channel_id;
  y.agent_id = spec_.profile.agent_id;
  return y;
}

std::optional<messages::offer_response>
member_brain::answer(const messages::demand_offer& x) const {
  auto y = offer_base(x);
  const auto* capability = matching(x.capability_tags);
  if (spec_.brain == messages::member_brain_kind::rule) {
    if (capability != nullptr) {
      y.decision = offer_decision::participate;
      y.contribution = contribution_for(*capability);
      y.reasoning = "has " + *capability + ", which the demand asks for";
    } else {
      y.decision = offer_decision::decline;
      y.decline_reason = "none of its capabilities is among the demand's";
    }
    return y;
  }
  const auto* step = step_of(spec_, x.round);
  if (step == nullptr || step->offer == scripted_offer::silent)
    return std::nullopt;
  switch (step->offer) {
  case scripted_offer::decline:
    y.decision = offer_decision::decline;
    y.decline_reason =
        step->decline_reason.empty() ? "declined by script" : step->decline_reason;
    return y;
  case scripted_offer::conditional:
    y.decision = offer_decision::conditional;
    break;
  default:
    y.decision = offer_decision::participate;
  }
  y.contribution = !step->contribution.empty()          ? step->contribution
                   : capability != nullptr              ? contribution_for(*capability)
                   : !spec_.profile.description.empty() ? spec_.profile.description
                                                        : name_ + " takes part";
  y.conditions = step->conditions;
  return y;
}

std::optional<messages::proposal_feedback>
member_brain::review(const messages::proposal_review& x) const {
  auto y = feedback_base(x);
  if (spec_.brain == messages::member_brain_kind::rule) {
    if (x.round >= spec_.accept_from_round) {
      y.feedback_type = feedback_type::accept;
    } else {
      y.feedback_type = feedback_type::negotiate;
      y.adjustment_request = "revisit " + name_ + "'s part (accepts from round " +
                             std::to_string(spec_.accept_from_round) + ")";
    }
    return y;
  }
  const auto* step = step_of(spec_, x.round);
  if (step == nullptr || step->feedback == scripted_feedback::silent)
    return std::nullopt;
  switch (step->feedback) {
  case scripted_feedback::negotiate:
    y.feedback_type = feedback_type::negotiate;
    y.adjustment_request = step->adjustment_request.empty()
                               ? "revisit " + name_ + "'s part"
                               : step->adjustment_request;
    break;
  case scripted_feedback::withdraw:
    y.feedback_type = feedback_type::withdraw;
    break;
  default:
    y.feedback_type = feedback_type::accept;
  }
  return y;
}

} // namespace parley::actors::channel
