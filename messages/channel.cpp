#include "messages/channel.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* offer_response_type_names[] = {"offer", "negotiate"};
constexpr const char* offer_decision_names[] = {"participate", "decline",
                                                "conditional"};
constexpr const char* feedback_type_names[] = {"accept", "negotiate", "withdraw"};

/// Every channel message names its sender, its channel and itself (the id
/// that makes a replay harmless).
std::string validate_ids(const std::string& message_id, const std::string& channel_id,
                         const std::string& agent_id) {
  if (message_id.empty())
    return "message_id is required";
  if (channel_id.empty())
    return "channel_id is required";
  if (agent_id.empty())
    return "agent_id is required";
  return {};
}

} // namespace

std::string validate(const offer_response& x) {
  if (auto why = validate_ids(x.message_id, x.channel_id, x.agent_id); !why.empty())
    return why;
  if (x.confidence < 0 || x.confidence > 100)
    return "confidence must be within 0..100, got " + std::to_string(x.confidence);
  // An offer that takes part needs a contribution; a decline contributes
  // nothing (docs/protocols/channels.md, "Collecting offers").
  if (x.response_type == offer_response_type::offer &&
      x.decision != offer_decision::decline && x.contribution.empty())
    return "an offer that takes part needs a contribution";
  if (x.response_type == offer_response_type::negotiate && x.negotiation_points.empty())
    return "negotiate needs at least one negotiation point";
  return {};
}

std::string validate(const proposal_feedback& x) {
  return validate_ids(x.message_id, x.channel_id, x.agent_id);
}

std::string validate(const channel_proposal& x, std::int32_t max_rounds) {
  if (x.version < 1 || x.version > max_rounds)
    return "version must be within 1.." + std::to_string(max_rounds) + ", got " +
           std::to_string(x.version);
  for (const auto& a : x.assignments)
    if (a.agent_id.empty())
      return "every assignment needs an agent_id";
  return {};
}

PARLEY_ENUM_NAMES(offer_response_type, offer_response_type_names)
PARLEY_ENUM_NAMES(offer_decision, offer_decision_names)
PARLEY_ENUM_NAMES(feedback_type, feedback_type_names)

} // namespace parley::messages
