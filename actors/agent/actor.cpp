#include "actors/agent/actor.hpp"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "caf/actor_cast.hpp"
#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/agent/brain.hpp"
#include "actors/agent/shell.hpp"
#include "actors/agent/voter.hpp"
#include "actors/common/shared_behavior.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/llm.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::agent {

namespace {

/// A rule or script agent also takes its own think-time replies.
using rule_agent_actor = agent_actor::extend<caf::reacts_to<messages::deferred_reply>>;

struct agent_state {
  std::string id;
  std::unique_ptr<brain> mind;
  /// Its start requests not answered yet, by message id.
  std::vector<std::string> starting;
  std::uint64_t sent = 0;
  std::int32_t max_rounds = 5;
  messages::event_sink events;

  /// A message id unique for this agent: "<agent id>:<n>".
  std::string next_message_id() { return id + ":" + std::to_string(++sent); }
};

class rule_agent : public shared_behavior_actor<rule_agent, rule_agent_actor::base> {
public:
  rule_agent(caf::actor_config& cfg, std::string id, std::unique_ptr<brain> mind,
             std::int32_t max_rounds, peers with)
      : shared_behavior_actor(cfg) {
    state.id = std::move(id);
    state.mind = std::move(mind);
    state.max_rounds = max_rounds;
    state.events = std::move(with.events);
    state.sent = with.first_message;
  }

  const char* name() const override { return "parley.agent"; }

  static rule_agent_actor::behavior_type make_shared_behavior();

  void start() {}

  /// Lets go of the brain and every handle as the agent stops.
  void on_exit() override { state = agent_state{}; }

  agent_state state;
};

/// Asks the brain how to answer an offer and answers its sender (now or
/// after the decision's think time). The agent keeps nothing: the offer's
/// terms say all the brain needs.
void answer(rule_agent* self, const std::string& negotiation_id,
            const messages::proposal& incoming, const messages::answer_terms& terms) {
  auto& st = self->state;
  auto d = st.mind->decide(context_of(negotiation_id, incoming, terms, st.max_rounds));
  if (!d)
    return;
  auto to = caf::actor_cast<offer_receiver>(self->current_sender());
  if (d->delay_ms > 0) {
    self->delayed_send(self,
                       messages::saturating_milliseconds<caf::timespan>(d->delay_ms),
                       messages::deferred_reply{negotiation_id, std::move(*d),
                                                std::move(to), terms.answer_by_ms});
    return;
  }
  send_decision(self, to, negotiation_id, *d);
}

rule_agent_actor::behavior_type rule_agent::make_shared_behavior() {
  return {
      [](const messages::agent_proposal& x, const messages::answer_terms& terms) {
        answer(&running(), x.negotiation_id, x.proposal, terms);
      },
      [](const messages::agent_counter& x, const messages::answer_terms& terms) {
        answer(&running(), x.negotiation_id, x.proposal, terms);
      },
      // The negotiation ended: nothing to forget.
      [](const messages::agent_accept&) {},
      [](const messages::agent_reject&) {},
      [](messages::initiate_negotiation& x) {
        request_start(&running(), x.room, std::move(x.responder), std::move(x.proposal),
                      std::move(x.intent_id), std::move(x.message_id));
      },
      [](const messages::negotiation_opened& x) { on_opened(running().state, x); },
      [](const messages::problem_event& x) { on_refused(running().state, x); },
      [](const messages::negotiation_event&) {},
      // Past its deadline the negotiation expired while the agent thought.
      [](messages::deferred_reply& x) {
        auto& self = running();
        if (wall_clock{self.system()}.now_ms() < x.answer_by_ms)
          send_decision(&self, x.to, x.negotiation_id, x.decision);
      },
      // Rule and script brains do not listen to conversations.
      [](const messages::transcript_entry&) {},
      [](const messages::negotiation_trigger&) {},
      [](const messages::set_tools&) {},
      [](messages::barrier& x) {
        auto& self = running();
        self.send(self.state.events.bus(), std::move(x));
      },
      // A rule agent votes and bids by itself, from its profile
      // (docs/protocols/ballots-and-auctions.md, "How rule agents vote and bid"); a
      // scripted agent waits to be told (cast_vote, place_bid).
      [](const messages::ballot_invite& x) {
        auto& self = running();
        if (const auto* profile = self.state.mind->voter())
          self.send(x.ballot, messages::vote{x.spec.id, self.state.id,
                                             decide_vote(self.state.id, *profile, x.spec)});
      },
      [](const messages::auction_invite& x) {
        auto& self = running();
        if (const auto* profile = self.state.mind->voter())
          if (auto b = decide_bid(self.state.id, *profile, x.spec))
            self.send(x.auction, std::move(*b));
      },
      [](messages::cast_vote& x) { running().send(x.ballot, std::move(x.vote)); },
      [](messages::place_bid& x) { running().send(x.auction, std::move(x.bid)); },
  };
}

} // namespace

agent_actor spawn_agent(caf::actor_system& sys, messages::agent_spec spec,
                        std::int32_t max_rounds, peers with) {
  auto mind = make_brain(spec.brain, spec.profile);
  return spawn_agent(sys, std::move(spec.id), std::move(mind), max_rounds,
                     std::move(with));
}

agent_actor spawn_agent(caf::actor_system& sys, std::string id,
                        std::unique_ptr<brain> mind, std::int32_t max_rounds,
                        peers with) {
  if (!mind)
    throw std::invalid_argument("agent " + id + " needs a brain, got none");
  return sys.spawn<rule_agent, caf::lazy_init>(std::move(id), std::move(mind),
                                               max_rounds, std::move(with));
}

} // namespace parley::actors::agent
