#include "actors/agent/external_agent.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::agent {

namespace {

struct external_state {
  static inline const char* name = "parley.external_agent";
  std::string id;
  messages::event_sink events;
};

agent_actor::behavior_type
external_agent(agent_actor::stateful_pointer<external_state> self, std::string id,
               peers with) {
  self->state.id = std::move(id);
  self->state.events = std::move(with.events);
  return {
      [self](messages::initiate_negotiation& x) {
        self->send(x.room,
                   messages::start_negotiation{
                       std::move(x.message_id), self->state.id, std::move(x.responder),
                       std::move(x.proposal), std::move(x.intent_id)});
      },
      // Its client learns these from the API (the negotiation's record).
      [](const messages::negotiation_opened&) {},
      [](const messages::problem_event&) {},
      [](const messages::agent_proposal&, const messages::answer_terms&) {},
      [](const messages::agent_counter&, const messages::answer_terms&) {},
      [](const messages::agent_accept&) {},
      [](const messages::agent_reject&) {},
      [](const messages::negotiation_event&) {},
      [](const messages::transcript_entry&) {},
      [](const messages::negotiation_trigger&) {},
      [](const messages::set_tools&) {},
      [self](messages::barrier& x) {
        if (self->state.events)
          self->send(self->state.events.bus(), std::move(x));
      },
      // It does not vote or bid by itself; told to, it does
      // (docs/protocols/ballots-and-auctions.md, "How rule agents vote and bid").
      [](const messages::ballot_invite&) {},
      [](const messages::auction_invite&) {},
      [self](messages::cast_vote& x) { self->send(x.ballot, std::move(x.vote)); },
      [self](messages::place_bid& x) { self->send(x.auction, std::move(x.bid)); },
  };
}

} // namespace

agent_actor spawn_external_agent(caf::actor_system& sys, messages::agent_spec spec,
                                 peers with) {
  return sys.spawn<caf::lazy_init>(external_agent, std::move(spec.id), std::move(with));
}

} // namespace parley::actors::agent
