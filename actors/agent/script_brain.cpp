#include "actors/agent/script_brain.hpp"

#include <utility>

namespace parley::actors::agent {

script_brain::step script_brain::compact(messages::script_reply x) {
  static_assert(sizeof(step) <= 32, "a load test holds millions of steps");
  step result;
  result.action = x.action;
  result.delay_ms = x.delay_ms;
  extras more;
  more.reason = std::move(x.reason);
  if (x.action == messages::reply_action::counter && x.proposal) {
    auto& p = *x.proposal;
    if (!p.currency && !p.escrow && !p.description && !p.terms && p.amount) {
      result.amount = *p.amount;
      result.sets_amount = true;
    } else {
      more.patch = std::move(p);
    }
  }
  if (!more.reason.empty() || more.patch)
    result.more = std::make_unique<const extras>(std::move(more));
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
  result.delay_ms = reply.delay_ms;
  if (reply.more)
    result.reason = reply.more->reason;
  if (reply.action == messages::reply_action::counter) {
    result.proposal = offer.incoming;
    if (reply.sets_amount)
      result.proposal.amount = reply.amount;
    else if (reply.more && reply.more->patch)
      result.proposal = messages::apply_patch(offer.incoming, *reply.more->patch);
  }
  return result;
}

} // namespace parley::actors::agent
