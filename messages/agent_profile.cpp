#include "messages/agent_profile.hpp"

#include <algorithm>

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* escrow_names[] = {"always", "never", "above_threshold"};
constexpr const char* style_names[] = {"aggressive", "balanced", "conservative"};
constexpr const char* brain_names[] = {"rule", "script", "llm", "external", "strategy"};
constexpr const char* strategy_names[] = {
    "boulware", "linear", "conceder", "hardliner", "random", "tit_for_tat", "micro"};
constexpr const char* side_names[] = {"from_role", "buyer", "seller"};
constexpr const char* reply_action_names[] = {"counter", "accept", "reject", "silent"};

} // namespace

bool escrow_required(const agent_preferences& x, std::int64_t amount) {
  switch (x.escrow_preference) {
  case escrow_preference::always:
    return true;
  case escrow_preference::never:
    return false;
  case escrow_preference::above_threshold:
    return amount > x.escrow_threshold;
  }
  return false;
}

std::int64_t reservation_limit(const agent_preferences& x, bargaining_side side) {
  if (side == bargaining_side::seller)
    return x.reservation_amount ? *x.reservation_amount
                                : x.max_auto_approve_amount / 10;
  if (x.reservation_amount)
    return std::min(*x.reservation_amount, x.max_auto_approve_amount);
  return x.max_auto_approve_amount;
}

bool past_reservation(const agent_preferences& x, bargaining_side side,
                      std::int64_t amount) {
  auto limit = reservation_limit(x, side);
  return side == bargaining_side::seller ? amount < limit : amount > limit;
}

proposal apply_patch(const proposal& base, const proposal_patch& patch) {
  proposal result = base;
  if (patch.amount)
    result.amount = *patch.amount;
  if (patch.currency)
    result.currency = *patch.currency;
  if (patch.escrow)
    result.escrow = *patch.escrow;
  if (patch.description)
    result.description = *patch.description;
  if (patch.terms)
    result.terms = *patch.terms;
  return result;
}

std::string to_string(escrow_preference x) {
  return enum_name(escrow_names, x);
}
bool from_string(const std::string& text, escrow_preference& x) {
  return enum_from_name(escrow_names, text, x);
}
std::string to_string(negotiation_style x) {
  return enum_name(style_names, x);
}
bool from_string(const std::string& text, negotiation_style& x) {
  return enum_from_name(style_names, text, x);
}
std::string to_string(brain_kind x) {
  return enum_name(brain_names, x);
}
bool from_string(const std::string& text, brain_kind& x) {
  return enum_from_name(brain_names, text, x);
}
std::string to_string(strategy_kind x) {
  return enum_name(strategy_names, x);
}
bool from_string(const std::string& text, strategy_kind& x) {
  return enum_from_name(strategy_names, text, x);
}
std::string to_string(bargaining_side x) {
  return enum_name(side_names, x);
}
bool from_string(const std::string& text, bargaining_side& x) {
  return enum_from_name(side_names, text, x);
}
std::string to_string(reply_action x) {
  return enum_name(reply_action_names, x);
}
bool from_string(const std::string& text, reply_action& x) {
  return enum_from_name(reply_action_names, text, x);
}

} // namespace parley::messages
