#include "messages/channel_member.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* brain_names[] = {"rule", "script", "llm"};
constexpr const char* offer_names[] = {"participate", "decline", "conditional",
                                       "silent"};
constexpr const char* feedback_names[] = {"accept", "negotiate", "withdraw", "silent"};

} // namespace

std::string validate(const channel_member_spec& x) {
  if (x.profile.agent_id.empty())
    return "profile.agent_id is required";
  if (x.accept_from_round < 1)
    return "accept_from_round must be at least 1, got " +
           std::to_string(x.accept_from_round);
  return {};
}

PARLEY_ENUM_NAMES(member_brain_kind, brain_names)
PARLEY_ENUM_NAMES(scripted_offer, offer_names)
PARLEY_ENUM_NAMES(scripted_feedback, feedback_names)

} // namespace parley::messages
