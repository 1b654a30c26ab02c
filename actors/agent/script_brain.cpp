#include "actors/agent/script_brain.hpp"

#include <utility>

namespace parley::actors::agent {

script_brain::script_brain(std::vector<messages::script_reply> script)
    : script_(std::move(script)) {}

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
  if (reply.action == messages::reply_action::counter)
    result.proposal = reply.proposal
                          ? messages::apply_patch(offer.incoming, *reply.proposal)
                          : offer.incoming;
  return result;
}

} // namespace parley::actors::agent
