#pragma once

// What every agent shell (rule or script brain, LLM brain) does the same way:
// remember the negotiations it takes part in, open negotiations, and carry a
// decision out. `State` has `id`, `open` (memos), `starting` (pending starts)
// and `next_message_id()`.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "caf/actor_cast.hpp"

#include "actors/agent/interface.hpp"
#include "actors/room/interface.hpp"
#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"
#include "messages/decision.hpp"
#include "messages/events.hpp"

namespace parley::actors::agent {

/// What an agent remembers of a negotiation it takes part in.
struct memo {
  std::string negotiation_id;
  /// Where its answers go, learned from the offers it gets.
  offer_receiver negotiation;
  /// This agent's latest offer.
  std::optional<messages::proposal> my_last;
  /// Rounds so far.
  std::int32_t round = 0;
};

/// A start request sent to a room and not answered yet.
struct pending_start {
  std::string message_id;
  messages::proposal opening;
};

/// The memo of `negotiation_id`, or null.
template <class State>
memo* find_memo(State& st, const std::string& negotiation_id) {
  auto i = std::find_if(st.open.begin(), st.open.end(), [&](const memo& m) {
    return m.negotiation_id == negotiation_id;
  });
  return i != st.open.end() ? &*i : nullptr;
}

/// The memo of `negotiation_id`, made if new.
template <class State> memo& memo_of(State& st, const std::string& negotiation_id) {
  if (auto* m = find_memo(st, negotiation_id))
    return *m;
  st.open.push_back(memo{negotiation_id, {}, std::nullopt, 0});
  return st.open.back();
}

/// Forgets an ended negotiation; an agent that takes part in none keeps no
/// memory for memos (millions of idle agents must stay small).
template <class State> void forget(State& st, const std::string& negotiation_id) {
  auto i = std::find_if(st.open.begin(), st.open.end(), [&](const memo& m) {
    return m.negotiation_id == negotiation_id;
  });
  if (i == st.open.end())
    return;
  st.open.erase(i);
  if (st.open.empty())
    std::vector<memo>{}.swap(st.open);
}

/// Records an offer the agent got (a proposal or counter) and returns its
/// memo: the sender is where the answers go.
template <class Self>
memo& on_offer(Self* self, const std::string& negotiation_id) {
  auto& m = memo_of(self->state, negotiation_id);
  m.negotiation = caf::actor_cast<offer_receiver>(self->current_sender());
  ++m.round;
  return m;
}

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
  st.starting.push_back(pending_start{message_id, opening});
  self->send(room, messages::start_negotiation{message_id, st.id, std::move(responder),
                                               std::move(opening),
                                               std::move(intent_id)});
  return message_id;
}

/// Gives up the agent's start request `message_id`. Returns false if there
/// is no such pending start.
template <class State> bool drop_start(State& st, const std::string& message_id) {
  auto i = std::find_if(st.starting.begin(), st.starting.end(),
                        [&](const auto& p) { return p.message_id == message_id; });
  if (i == st.starting.end())
    return false;
  st.starting.erase(i);
  if (st.starting.empty())
    std::vector<pending_start>{}.swap(st.starting);
  return true;
}

/// The room opened one of the agent's starts: the opening is its latest offer
/// there. Returns false if the start was not this agent's.
template <class State>
bool on_opened(State& st, const messages::negotiation_opened& x) {
  auto i = std::find_if(st.starting.begin(), st.starting.end(),
                        [&](const auto& p) { return p.message_id == x.message_id; });
  if (i == st.starting.end())
    return false;
  auto& m = memo_of(st, x.negotiation_id);
  m.my_last = std::move(i->opening);
  m.round = std::max(m.round, 1);
  return drop_start(st, x.message_id);
}

/// A problem about one of the agent's starts (the room refused it): forgets
/// the start. Returns false if the problem is about something else.
template <class State> bool on_refused(State& st, const messages::problem_event& x) {
  return drop_start(st, x.message_id);
}

/// Sends the agent message a decision stands for and updates the memo: a
/// counter becomes the agent's latest offer, an accept or reject closes the
/// negotiation.
template <class Self, class State>
void carry_out(Self* self, State& st, const std::string& negotiation_id,
               messages::decision& d) {
  auto* m = find_memo(st, negotiation_id);
  if (m == nullptr)
    return; // the negotiation ended while the agent was thinking
  switch (d.action) {
  case messages::reply_action::counter:
    m->my_last = d.proposal;
    ++m->round;
    self->send(m->negotiation,
               messages::agent_counter{st.next_message_id(), negotiation_id, st.id,
                                       std::move(d.proposal), std::move(d.reason)});
    return;
  case messages::reply_action::accept:
    self->send(m->negotiation,
               messages::agent_accept{st.next_message_id(), negotiation_id, st.id});
    forget(st, negotiation_id);
    return;
  case messages::reply_action::reject:
    self->send(m->negotiation,
               messages::agent_reject{st.next_message_id(), negotiation_id, st.id,
                                      std::move(d.reason)});
    forget(st, negotiation_id);
    return;
  case messages::reply_action::silent:
    return;
  }
}

} // namespace parley::actors::agent
