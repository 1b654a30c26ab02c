#include "messages/negotiation_record.hpp"

#include <cmath>

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* negotiation_status_names[] = {"proposed", "countering",
                                                    "accepted", "rejected", "expired"};
constexpr const char* round_action_names[] = {"propose", "counter", "accept", "reject"};

} // namespace

std::string validate(const incentive_split& x) {
  for (double share : {x.agent, x.broker, x.validator, x.pool})
    if (!std::isfinite(share) || share < 0.0 || share > 1.0)
      return "every incentive share must be between 0 and 1";
  auto sum = x.agent + x.broker + x.validator + x.pool;
  if (std::fabs(sum - 1.0) > 1e-9)
    return "incentive shares must sum to 1, got " + std::to_string(sum);
  return {};
}

void append_counter(negotiation_record& record, negotiation_round round,
                    double convergence_score) {
  record.current_proposal = round.proposal;
  record.updated_at = round.timestamp;
  record.status = negotiation_status::countering;
  record.convergence_score = convergence_score;
  record.rounds.push_back(std::move(round));
}

std::string to_string(negotiation_status x) {
  return enum_name(negotiation_status_names, x);
}

bool from_string(const std::string& text, negotiation_status& x) {
  return enum_from_name(negotiation_status_names, text, x);
}

std::string to_string(round_action x) {
  return enum_name(round_action_names, x);
}

bool from_string(const std::string& text, round_action& x) {
  return enum_from_name(round_action_names, text, x);
}

} // namespace parley::messages
