#include "actors/negotiation/replay.hpp"

#include <algorithm>
#include <cstdint>

#include "caf/none.hpp"

#include "actors/negotiation/rules.hpp"

namespace parley::actors::negotiation {

using messages::negotiation_status;
using messages::round_action;

move_fingerprint fingerprint_of(const messages::agent_proposal& x) {
  return {x.from_agent, round_action::propose, x.proposal, {}};
}

move_fingerprint fingerprint_of(const messages::agent_counter& x) {
  return {x.from_agent, round_action::counter, x.proposal, x.reason};
}

move_fingerprint fingerprint_of(const messages::agent_accept& x) {
  return {x.from_agent, round_action::accept, std::nullopt, {}};
}

move_fingerprint fingerprint_of(const messages::agent_reject& x) {
  return {x.from_agent, round_action::reject, std::nullopt, x.reason};
}

move_fingerprint fingerprint_of(const messages::negotiation_round& x) {
  switch (x.action) {
  case round_action::propose:
    return {x.from_agent, x.action, x.proposal, {}};
  case round_action::counter:
    return {x.from_agent, x.action, x.proposal, x.reason};
  case round_action::accept:
    return {x.from_agent, x.action, std::nullopt, {}};
  case round_action::reject:
    break;
  }
  return {x.from_agent, x.action, std::nullopt, x.reason};
}

std::vector<std::string> differences(const move_fingerprint& first,
                                     const move_fingerprint& again) {
  std::vector<std::string> out;
  if (first.from != again.from)
    out.emplace_back("from");
  if (first.action != again.action)
    out.emplace_back("action");
  if (first.proposal.has_value() != again.proposal.has_value()) {
    out.emplace_back("proposal");
  } else if (first.proposal) {
    const auto& x = *first.proposal;
    const auto& y = *again.proposal;
    if (x.amount != y.amount)
      out.emplace_back("proposal.amount");
    if (x.currency != y.currency)
      out.emplace_back("proposal.currency");
    if (x.escrow != y.escrow)
      out.emplace_back("proposal.escrow");
    if (x.description != y.description)
      out.emplace_back("proposal.description");
    if (x.terms != y.terms)
      out.emplace_back("proposal.terms");
  }
  if (first.reason != again.reason)
    out.emplace_back("reason");
  return out;
}

std::string reuse_text(const std::string& message_id,
                       const std::vector<std::string>& differs) {
  std::string names;
  for (const auto& name : differs)
    names += (names.empty() ? "" : ", ") + name;
  return "Message id " + message_id + " was already used for another move (" + names +
         (differs.size() == 1 ? " differs)" : " differ)");
}

const messages::negotiation_round* round_of(const messages::negotiation_record& record,
                                            const std::string& message_id) {
  if (message_id.empty())
    return nullptr;
  auto i =
      std::find_if(record.rounds.begin(), record.rounds.end(),
                   [&](const auto& round) { return round.message_id == message_id; });
  return i != record.rounds.end() ? &*i : nullptr;
}

std::optional<messages::negotiation_record>
record_after(const messages::negotiation_record& later, const std::string& message_id) {
  const auto* move = round_of(later, message_id);
  if (move == nullptr)
    return std::nullopt;
  auto x = later;
  auto count = static_cast<std::size_t>(move - later.rounds.data()) + 1;
  x.rounds.resize(count);
  x.final_proposal = caf::none;
  x.status_reason.clear();
  x.convergence_score = 0.0;
  std::optional<std::int64_t> initiator_amount;
  std::optional<std::int64_t> responder_amount;
  // The rules' steps, round by round (rules.cpp).
  for (std::size_t i = 0; i < count; ++i) {
    const auto& round = x.rounds[i];
    x.updated_at = round.timestamp;
    switch (round.action) {
    case round_action::propose:
    case round_action::counter:
      if (round.action == round_action::counter &&
          i >= static_cast<std::size_t>(std::max(x.max_rounds, 0))) {
        // The counter past the round limit: kept, not taken up.
        x.status = negotiation_status::expired;
        x.status_reason = round_limit_reason(x.max_rounds);
        break;
      }
      (round.from_agent == x.initiator ? initiator_amount : responder_amount) =
          round.proposal.amount;
      x.current_proposal = round.proposal;
      if (round.action == round_action::counter) {
        x.status = negotiation_status::countering;
        if (initiator_amount && responder_amount)
          x.convergence_score = convergence_score(*initiator_amount, *responder_amount);
      } else {
        x.status = negotiation_status::proposed;
      }
      break;
    case round_action::accept:
      x.status = negotiation_status::accepted;
      x.final_proposal = x.current_proposal;
      x.convergence_score = 1.0;
      break;
    case round_action::reject:
      x.status = negotiation_status::rejected;
      x.status_reason = round.reason;
      break;
    }
  }
  return x;
}

} // namespace parley::actors::negotiation
