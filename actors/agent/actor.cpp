#include "actors/agent/actor.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/agent/brain.hpp"
#include "actors/agent/initiate.hpp"
#include "actors/agent/reply.hpp"
#include "actors/agent/voter.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::agent {

namespace {

struct agent_state {
  static inline const char* name = "parley.agent";
  std::string id;
  std::unique_ptr<brain> mind;
  /// Kept for voting and bidding (seed 004).
  messages::agent_profile profile;
  messages::brain_kind kind = messages::brain_kind::rule;
  std::unordered_map<std::string, memo> open;
  std::uint64_t sent = 0;
  std::int32_t max_rounds = 5;
  caf::actor bus;
  std::optional<wall_clock> clock;

  /// A message id unique for this agent: "<agent id>:<n>".
  std::string next_message_id() { return id + ":" + std::to_string(++sent); }
};

using agent_actor = caf::stateful_actor<agent_state>;

/// Asks the brain how to answer an offer and answers (now or after the
/// decision's think time).
void answer(agent_actor* self, const std::string& negotiation_id,
            const messages::proposal& incoming) {
  auto& st = self->state;
  auto& m = st.open[negotiation_id];
  m.negotiation = caf::actor_cast<caf::actor>(self->current_sender());
  ++m.round;
  auto d = st.mind->decide(
      offer_context{negotiation_id, incoming, m.my_last, m.round, st.max_rounds});
  if (!d)
    return; // an asynchronous brain answers with a deferred_reply
  if (d->delay_ms > 0) {
    self->delayed_send(self, std::chrono::milliseconds(d->delay_ms),
                       messages::deferred_reply{negotiation_id, std::move(*d)});
    return;
  }
  carry_out(self, self->state, negotiation_id, *d);
}

caf::behavior agent_behavior(agent_actor* self, messages::agent_spec spec,
                             std::int32_t max_rounds, caf::actor bus) {
  auto& st = self->state;
  st.id = std::move(spec.id);
  st.mind = make_brain(spec.brain, spec.profile);
  st.profile = std::move(spec.profile);
  st.kind = spec.brain.kind;
  st.max_rounds = max_rounds;
  st.bus = std::move(bus);
  st.clock.emplace(self->system());
  return {
      [self](messages::initiate_negotiation& x) { return initiate(self, x); },
      [self](const messages::agent_proposal& x) {
        answer(self, x.negotiation_id, x.proposal);
      },
      [self](const messages::agent_counter& x) {
        answer(self, x.negotiation_id, x.proposal);
      },
      [self](const messages::agent_accept& x) {
        self->state.open.erase(x.negotiation_id);
      },
      [self](const messages::agent_reject& x) {
        self->state.open.erase(x.negotiation_id);
      },
      [self](const messages::negotiation_event& x) {
        if (messages::is_terminal(x.record.status))
          self->state.open.erase(x.record.id);
      },
      [self](messages::deferred_reply& x) {
        carry_out(self, self->state, x.negotiation_id, x.decision);
      },
      // Rule and script brains do not listen to conversations.
      [](const messages::transcript_entry&) {},
      [](const messages::negotiation_trigger&) {},
      // Seed 004: a rule agent votes and bids by itself, from its profile; a
      // scripted agent waits to be told (cast_vote, place_bid).
      [self](const messages::ballot_invite& x) {
        auto& st = self->state;
        if (st.kind == messages::brain_kind::rule)
          self->send(x.ballot, messages::vote{x.spec.id, st.id,
                                              decide_vote(st.id, st.profile, x.spec)});
      },
      [self](const messages::auction_invite& x) {
        auto& st = self->state;
        if (st.kind != messages::brain_kind::rule)
          return;
        if (auto b = decide_bid(st.id, st.profile, x.spec))
          self->send(x.auction, std::move(*b));
      },
      [self](messages::cast_vote& x) { self->send(x.ballot, std::move(x.vote)); },
      [self](messages::place_bid& x) { self->send(x.auction, std::move(x.bid)); },
  };
}

} // namespace

caf::actor spawn_agent(caf::actor_system& sys, messages::agent_spec spec,
                       std::int32_t max_rounds, caf::actor bus) {
  return sys.spawn<caf::lazy_init>(agent_behavior, std::move(spec), max_rounds,
                                   std::move(bus));
}

} // namespace parley::actors::agent
