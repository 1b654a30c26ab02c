#include "messages/error_code.hpp"

#include <array>
#include <cstdio>

namespace parley::messages {

namespace {

constexpr std::array<const char*, 38> names = {
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
    "unauthorized",
    "overloaded",
    "request_too_large",
    "route_not_found",
    "method_not_allowed",
    "already_exists",
    "message_id_reused",
    "headers_too_large",
    "internal_error",
};

/// Indexed by code, as `names`.
constexpr std::array<unsigned short, 38> statuses = {
    500, // none
    400, // E001 invalid_request (docs/api.md, "Errors")
    404, // E002 demand_not_found
    503, // E003 llm_unavailable
    504, // E004 llm_timeout
    200, // E005 no_candidates
    200, // E006 negotiation_timeout
    404, // E007 channel_not_found
    404, // E008 agent_not_found
    500, // E009 event_push_failed
    500, // E010 illegal_transition
    200, // E011 duplicate_message
    409, // E012 negotiation_in_progress
    403, // E013 not_a_party
    409, // E014 out_of_turn
    404, // E015 negotiation_not_found
    409, // E016 negotiation_not_active
    422, // E017 invalid_proposal
    404, // E018 room_not_found
    500, // E019 invalid_config
    400, // E020 invalid_scenario
    503, // E021 node_unavailable
    403, // E022 not_eligible
    409, // E023 already_cast
    409, // E024 voting_closed
    422, // E025 invalid_vote
    422, // E026 invalid_bid
    422, // E027 invalid_ballot
    503, // E028 store_failed
    401, // E029 unauthorized
    503, // E030 overloaded
    413, // E031 request_too_large
    404, // E032 route_not_found
    405, // E033 method_not_allowed
    409, // E034 already_exists
    422, // E035 message_id_reused
    431, // E036 headers_too_large
    500, // E037 internal_error
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

unsigned http_status(error_code x) {
  auto i = static_cast<size_t>(x);
  return i < statuses.size() ? statuses[i] : 500;
}

} // namespace parley::messages
