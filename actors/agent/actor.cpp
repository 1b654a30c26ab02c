#include "actors/agent/actor.hpp"

#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/agent/brain.hpp"
#include "actors/agent/shell.hpp"
#include "actors/agent/voter.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::agent {

namespace {

/// A rule or script agent also takes its own think-time replies.
using rule_agent_actor = agent_actor::extend<caf::reacts_to<messages::deferred_reply>>;

struct agent_state {
  static inline const char* name = "parley.agent";
  std::string id;
  std::unique_ptr<brain> mind;
  /// Kept for voting and bidding (seed 004).
  messages::agent_profile profile;
  messages::brain_kind kind = messages::brain_kind::rule;
  std::vector<memo> open;
  std::vector<pending_start> starting;
  std::uint64_t sent = 0;
  std::int32_t max_rounds = 5;
  messages::event_sink events;

  /// A message id unique for this agent: "<agent id>:<n>".
  std::string next_message_id() { return id + ":" + std::to_string(++sent); }
};

using agent_pointer = rule_agent_actor::stateful_pointer<agent_state>;

/// Asks the brain how to answer an offer and answers (now or after the
/// decision's think time).
void answer(agent_pointer self, const std::string& negotiation_id,
            const messages::proposal& incoming) {
  auto& st = self->state;
  auto& m = on_offer(self, negotiation_id);
  auto d = st.mind->decide(
      offer_context{negotiation_id, incoming, m.my_last, m.round, st.max_rounds});
  if (!d)
    return;
  if (d->delay_ms > 0) {
    self->delayed_send(self, std::chrono::milliseconds(d->delay_ms),
                       messages::deferred_reply{negotiation_id, std::move(*d)});
    return;
  }
  carry_out(self, st, negotiation_id, *d);
}

rule_agent_actor::behavior_type agent_behavior(agent_pointer self,
                                               messages::agent_spec spec,
                                               std::int32_t max_rounds, peers with) {
  auto& st = self->state;
  st.id = std::move(spec.id);
  st.mind = make_brain(spec.brain, spec.profile);
  st.profile = std::move(spec.profile);
  st.kind = spec.brain.kind;
  st.max_rounds = max_rounds;
  st.events = std::move(with.events);
  return {
      [self](messages::initiate_negotiation& x) {
        request_start(self, x.room, std::move(x.responder), std::move(x.proposal),
                      std::move(x.intent_id), std::move(x.message_id));
      },
      [self](const messages::negotiation_opened& x) { on_opened(self->state, x); },
      [self](const messages::problem_event& x) { on_refused(self->state, x); },
      [self](const messages::agent_proposal& x) {
        answer(self, x.negotiation_id, x.proposal);
      },
      [self](const messages::agent_counter& x) {
        answer(self, x.negotiation_id, x.proposal);
      },
      [self](const messages::agent_accept& x) { forget(self->state, x.negotiation_id); },
      [self](const messages::agent_reject& x) { forget(self->state, x.negotiation_id); },
      [self](const messages::negotiation_event& x) {
        if (is_terminal(x))
          forget(self->state, x.negotiation_id);
      },
      [self](messages::deferred_reply& x) {
        carry_out(self, self->state, x.negotiation_id, x.decision);
      },
      // Rule and script brains do not listen to conversations.
      [](const messages::transcript_entry&) {},
      [](const messages::negotiation_trigger&) {},
      [](const messages::set_tools&) {},
      [self](messages::barrier& x) {
        self->send(self->state.events.bus(), std::move(x));
      },
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

agent_actor spawn_agent(caf::actor_system& sys, messages::agent_spec spec,
                        std::int32_t max_rounds, peers with) {
  return sys.spawn<caf::lazy_init>(agent_behavior, std::move(spec), max_rounds,
                                   std::move(with));
}

} // namespace parley::actors::agent
