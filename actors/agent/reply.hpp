#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "caf/actor.hpp"

#include "messages/agent_messages.hpp"
#include "messages/decision.hpp"

namespace parley::actors::agent {

/// What an agent remembers of a negotiation it takes part in.
struct memo {
  /// The negotiation actor, learned from its first message.
  caf::actor negotiation;
  /// This agent's latest offer.
  std::optional<messages::proposal> my_last;
  /// Rounds so far.
  std::int32_t round = 0;
};

/// Sends the agent message a decision stands for and updates the memo: a
/// counter becomes the agent's latest offer, an accept or reject closes the
/// negotiation. Shared by every agent shell (`State` has `id`, `open` — memos
/// by negotiation id — and `next_message_id()`).
template <class Self, class State>
void carry_out(Self* self, State& st, const std::string& negotiation_id,
               messages::decision& d) {
  auto i = st.open.find(negotiation_id);
  if (i == st.open.end())
    return; // the negotiation ended while the agent was thinking
  auto& m = i->second;
  switch (d.action) {
  case messages::reply_action::counter:
    m.my_last = d.proposal;
    ++m.round;
    self->send(m.negotiation,
               messages::agent_counter{st.next_message_id(), negotiation_id, st.id,
                                       std::move(d.proposal), std::move(d.reason)});
    return;
  case messages::reply_action::accept:
    self->send(m.negotiation,
               messages::agent_accept{st.next_message_id(), negotiation_id, st.id});
    st.open.erase(i);
    return;
  case messages::reply_action::reject:
    self->send(m.negotiation,
               messages::agent_reject{st.next_message_id(), negotiation_id, st.id,
                                      std::move(d.reason)});
    st.open.erase(i);
    return;
  case messages::reply_action::silent:
    return;
  }
}

} // namespace parley::actors::agent
