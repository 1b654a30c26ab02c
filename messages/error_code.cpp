#include "messages/error_code.hpp"

#include <array>
#include <cstdio>

namespace parley::messages {

namespace {

constexpr std::array<const char*, 29> names = {
    "none",
    "invalid_request",
    "demand_not_found",
    "llm_unavailable",
    "llm_timeout",
    "no_candidates",
    "negotiation_timeout",
    "channel_not_found",
    "agent_not_found",
    "event_push_failed",
    "illegal_transition",
    "duplicate_message",
    "negotiation_in_progress",
    "not_a_party",
    "out_of_turn",
    "negotiation_not_found",
    "negotiation_not_active",
    "invalid_proposal",
    "room_not_found",
    "invalid_config",
    "invalid_scenario",
    "node_unavailable",
    "not_eligible",
    "already_cast",
    "voting_closed",
    "invalid_vote",
    "invalid_bid",
    "invalid_ballot",
    "store_failed",
};

} // namespace

std::string to_code(error_code x) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "E%03u", static_cast<unsigned>(x));
  return buf;
}

std::string to_string(error_code x) {
  auto i = static_cast<size_t>(x);
  return i < names.size() ? names[i] : "unknown";
}

bool from_code(const std::string& text, error_code& x) {
  if (text.size() != 4 || text[0] != 'E')
    return false;
  unsigned value = 0;
  for (size_t i = 1; i < 4; ++i) {
    if (text[i] < '0' || text[i] > '9')
      return false;
    value = value * 10 + static_cast<unsigned>(text[i] - '0');
  }
  if (value == 0 || value >= names.size())
    return false;
  x = static_cast<error_code>(value);
  return true;
}

} // namespace parley::messages
