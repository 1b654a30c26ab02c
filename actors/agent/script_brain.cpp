#include "actors/agent/script_brain.hpp"

#include <utility>

namespace parley::actors::agent {

script_brain::step script_brain::compact(messages::script_reply x) {
  step result;
  result.action = x.action;
  result.delay_ms = x.delay_ms;
  result.reason = std::move(x.reason);
  if (x.action != messages::reply_action::counter || !x.proposal)
    return result;
  auto& p = *x.proposal;
  if (!p.currency && !p.escrow && !p.description && !p.terms && p.amount)
    result.amount = *p.amount;
  else
    result.patch = std::make_unique<messages::proposal_patch>(std::move(p));
  return result;
}

script_brain::script_brain(std::vector<messages::script_reply> script) {
  script_.reserve(script.size());
  for (auto& x : script)
    script_.push_back(compact(std::move(x)));
}

std::optional<messages::decision> script_brain::decide(const offer_context& offer) {
  messages::decision result;
  if (next_ == script_.size()) {
    result.reason = "the script has no more replies";
    return result;
  }
  const auto& reply = script_[next_++];
  result.action = reply.action;
  result.reason = reply.reason;
  result.delay_ms = reply.delay_ms;
  if (reply.action == messages::reply_action::counter) {
    result.proposal = offer.incoming;
    if (reply.amount)
      result.proposal.amount = *reply.amount;
    else if (reply.patch)
      result.proposal = messages::apply_patch(offer.incoming, *reply.patch);
  }
  return result;
}

} // namespace parley::actors::agent
