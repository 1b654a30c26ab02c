#pragma once

// What every agent shell (rule or script brain, LLM brain) does the same way:
// open negotiations, build a brain's view of an offer, and send a decision.
// `State` has `id`, `starting` (pending starts) and `next_message_id()`.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actors/agent/brain.hpp"
#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"
#include "messages/decision.hpp"
#include "messages/events.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/room.hpp"

namespace parley::actors::agent {

/// Asks `room` to open a negotiation with `responder`, this agent proposing
/// `opening` (one message; the room answers `negotiation_opened` or the
/// refusal). Returns the start's message id (a fresh one when empty).
template <class Self>
std::string request_start(Self* self, const room_actor& room, std::string responder,
                          messages::proposal opening, std::string intent_id,
                          std::string message_id) {
  auto& st = self->state;
  if (message_id.empty())
    message_id = st.next_message_id();
  st.starting.push_back(message_id);
  self->send(room, messages::start_negotiation{message_id, st.id, std::move(responder),
                                               std::move(opening),
                                               std::move(intent_id)});
  return message_id;
}

/// Gives up the agent's start request `message_id`. Returns false if there
/// is no such pending start.
template <class State> bool drop_start(State& st, const std::string& message_id) {
  auto i = std::find(st.starting.begin(), st.starting.end(), message_id);
  if (i == st.starting.end())
    return false;
  st.starting.erase(i);
  if (st.starting.empty())
    std::vector<std::string>{}.swap(st.starting);
  return true;
}

/// The room opened one of the agent's starts. Returns false if the start was
/// not this agent's.
template <class State>
bool on_opened(State& st, const messages::negotiation_opened& x) {
  return drop_start(st, x.message_id);
}

/// A problem about one of the agent's starts (the room refused it): forgets
/// the start. Returns false if the problem is about something else.
template <class State> bool on_refused(State& st, const messages::problem_event& x) {
  return drop_start(st, x.message_id);
}

/// Sends `to` the agent message decision `d` stands for (nothing when
/// silent).
template <class Self>
void send_decision(Self* self, const offer_receiver& to,
                   const std::string& negotiation_id, messages::decision& d) {
  auto& st = self->state;
  switch (d.action) {
  case messages::reply_action::counter:
    self->send(to, messages::agent_counter{st.next_message_id(), negotiation_id, st.id,
                                           std::move(d.proposal), std::move(d.reason)});
    return;
  case messages::reply_action::accept:
    self->send(to, messages::agent_accept{st.next_message_id(), negotiation_id, st.id});
    return;
  case messages::reply_action::reject:
    self->send(to, messages::agent_reject{st.next_message_id(), negotiation_id, st.id,
                                          std::move(d.reason)});
    return;
  case messages::reply_action::silent:
    return;
  }
}

} // namespace parley::actors::agent
