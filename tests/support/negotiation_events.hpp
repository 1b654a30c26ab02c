#pragma once

// One W1-shaped negotiation as the bus carries it (started, two counters,
// agreed), for tests of the store and of anything else that consumes events.

#include <cstdint>
#include <string>

#include "messages/events.hpp"

namespace parley::test {

inline constexpr std::int64_t events_t0 = 1'767'225'600'000;

/// Round `n`, made by the message `message_id` (as the negotiation keeps it).
inline messages::negotiation_round sample_round(std::int32_t n, std::int64_t amount,
                                                messages::round_action action,
                                                std::string message_id) {
  messages::proposal p;
  p.amount = amount;
  return messages::negotiation_round{n,
                                     n % 2 == 1 ? "did:key:alice" : "did:key:bob",
                                     p,
                                     action,
                                     "",
                                     events_t0 + n * 1000,
                                     std::move(message_id)};
}

/// The record of negotiation `id` as it opens.
inline messages::negotiation_record sample_opened(const std::string& id) {
  messages::negotiation_record r;
  r.id = id;
  r.room_id = "room-1";
  r.intent_id = "intent-logo";
  r.initiator = "did:key:alice";
  r.responder = "did:key:bob";
  r.rounds = {sample_round(1, 10000, messages::round_action::propose, "alice:1")};
  r.current_proposal = r.rounds[0].proposal;
  r.created_at = events_t0;
  r.updated_at = events_t0;
  r.expires_at = events_t0 + 120000;
  return r;
}

inline messages::negotiation_event sample_started(const std::string& id) {
  messages::negotiation_event e;
  e.kind = messages::negotiation_event_kind::started;
  e.negotiation_id = id;
  e.message_id = "alice:1";
  e.record = messages::shared_record{sample_opened(id)};
  return e;
}

/// Round `n` (2 or 3), a counter of `amount`.
inline messages::negotiation_event sample_updated(const std::string& id, std::int32_t n,
                                                  std::int64_t amount) {
  messages::negotiation_event e;
  e.kind = messages::negotiation_event_kind::updated;
  e.negotiation_id = id;
  e.message_id = "m" + std::to_string(n);
  e.round = sample_round(n, amount, messages::round_action::counter, e.message_id);
  e.convergence_score = 0.456;
  return e;
}

/// Round 4 accepts 9250: the record as it ends.
inline messages::negotiation_event sample_agreed(const std::string& id) {
  auto r = sample_opened(id);
  r.rounds.push_back(sample_round(2, 8500, messages::round_action::counter, "m2"));
  r.rounds.push_back(sample_round(3, 9250, messages::round_action::counter, "m3"));
  r.rounds.push_back(sample_round(4, 9250, messages::round_action::accept, "bob:2"));
  r.status = messages::negotiation_status::accepted;
  r.final_proposal = r.rounds.back().proposal;
  r.current_proposal = r.rounds.back().proposal;
  r.convergence_score = 1.0;
  r.status_reason = "agreed";
  messages::negotiation_event e;
  e.kind = messages::negotiation_event_kind::agreed;
  e.negotiation_id = id;
  e.message_id = "bob:2";
  e.record = messages::shared_record{std::move(r)};
  return e;
}

} // namespace parley::test
