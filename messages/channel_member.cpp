#include "messages/channel_member.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* member_brain_kind_names[] = {"rule", "script", "llm"};
constexpr const char* scripted_offer_names[] = {"participate", "decline", "conditional",
                                                "silent"};
constexpr const char* scripted_feedback_names[] = {"accept", "negotiate", "withdraw",
                                                   "silent"};

} // namespace

std::string validate(const channel_member_spec& x) {
  if (x.profile.agent_id.empty())
    return "profile.agent_id is required";
  if (x.accept_from_round < 1)
    return "accept_from_round must be at least 1, got " +
           std::to_string(x.accept_from_round);
  return {};
}

PARLEY_ENUM_NAMES(member_brain_kind, member_brain_kind_names)
PARLEY_ENUM_NAMES(scripted_offer, scripted_offer_names)
PARLEY_ENUM_NAMES(scripted_feedback, scripted_feedback_names)

} // namespace parley::messages
