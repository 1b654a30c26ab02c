#include "actors/negotiation/actor.hpp"

#include <memory>
#include <optional>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/common/wall_clock.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::negotiation {

namespace {

struct negotiation_state {
  static inline const char* name = "parley.negotiation";
  /// On the heap: a pending timer keeps the ended actor's memory alive until
  /// it fires, but the state is freed at once.
  std::unique_ptr<rules> core;
  peers with;
  std::optional<wall_clock> clock;
  /// When the latest offer was passed on (for the replies' round trips).
  std::int64_t offered_at_us = 0;
};

using negotiation_actor = caf::stateful_actor<negotiation_state>;

const caf::actor& handle_of(negotiation_state& st, party x) {
  return x == party::initiator ? st.with.initiator : st.with.responder;
}

void publish_problem(negotiation_actor* self, const problem& p,
                     const std::string& agent_id, const std::string& message_id) {
  auto& st = self->state;
  self->send(st.with.bus,
             messages::problem_event{p.severity, p.code, p.message, st.clock->now_ms(),
                                     st.core->record().room_id, st.core->record().id,
                                     agent_id, message_id});
}

/// Carries out the effects of one input. `relayed` is what to deliver to
/// `fx.relay_to` (the agent message just applied, or the opening proposal).
void carry_out(negotiation_actor* self, std::int64_t now_us, effects& fx,
               caf::message relayed, const std::string& agent_id,
               const std::string& message_id) {
  auto& st = self->state;
  auto& core = *st.core;
  if (fx.refused)
    publish_problem(self, *fx.refused, agent_id, message_id);
  if (fx.relay_to)
    self->send(handle_of(st, *fx.relay_to), std::move(relayed));
  if (fx.event) {
    using kind = messages::negotiation_event_kind;
    auto at_us = now_us;
    auto at = now_us / 1000;
    auto is_reply = *fx.event == kind::updated || *fx.event == kind::agreed ||
                    *fx.event == kind::rejected;
    auto round_trip = is_reply ? at_us - st.offered_at_us : 0;
    if (fx.relay_to)
      st.offered_at_us = at_us;
    if (core.terminal()) {
      // One message, shared by every receiver: the record is not copied.
      auto ended = caf::make_message(messages::negotiation_event{
          *fx.event, at, core.take_record(), at_us, round_trip});
      self->send(st.with.bus, ended);
      if (fx.notify_parties) {
        self->send(st.with.initiator, ended);
        self->send(st.with.responder, ended);
      }
      self->send(st.with.room, std::move(ended));
    } else {
      self->send(st.with.bus, messages::negotiation_event{*fx.event, at, core.record(),
                                                          at_us, round_trip});
    }
  }
  if (fx.arm)
    self->delayed_send(self, st.clock->until(fx.arm->due_ms),
                       messages::negotiation_timer{fx.arm->generation});
  if (core.terminal()) {
    self->demonitor(st.with.room);
    self->quit();
  }
}

/// Applies one agent message to the rules and carries out the result.
template <class AgentMessage>
void on_agent_message(negotiation_actor* self, const AgentMessage& x) {
  effects fx;
  auto now_us = self->state.clock->now_us();
  self->state.core->on_message(x, now_us / 1000, fx);
  auto relayed = fx.relay_to
                     ? self->current_mailbox_element()->move_content_to_message()
                     : caf::message{};
  carry_out(self, now_us, fx, std::move(relayed), x.from_agent, x.message_id);
}

caf::behavior negotiation_behavior(negotiation_actor* self, rules core, effects opening,
                                   peers with) {
  auto& st = self->state;
  st.core = std::make_unique<rules>(std::move(core));
  st.with = std::move(with);
  st.clock.emplace(self->system());
  // A room that goes away (its node shutting down) takes its negotiation
  // along, which says so on the bus; nothing is left behind in the room when
  // the negotiation ends first (see carry_out).
  self->monitor(st.with.room);
  self->set_down_handler([self](const caf::down_msg& x) {
    if (x.source != self->state.with.room)
      return;
    publish_problem(self,
                    problem{messages::severity::error,
                            messages::error_code::node_unavailable,
                            "Negotiation aborted: its room stopped (" +
                                self->system().render(x.reason) + ")"},
                    {}, {});
    self->quit(x.reason);
  });
  const auto& record = st.core->record();
  const auto& first = record.rounds.front();
  carry_out(self, st.clock->now_us(), opening,
            caf::make_message(messages::agent_proposal{
                {}, record.id, first.from_agent, first.proposal}),
            first.from_agent, {});
  return {
      [self](const messages::agent_proposal& x) { on_agent_message(self, x); },
      [self](const messages::agent_counter& x) { on_agent_message(self, x); },
      [self](const messages::agent_accept& x) { on_agent_message(self, x); },
      [self](const messages::agent_reject& x) { on_agent_message(self, x); },
      [self](const messages::barrier& x) { self->send(self->state.with.bus, x); },
      [self](const messages::negotiation_timer& x) {
        effects fx;
        auto now_us = self->state.clock->now_us();
        self->state.core->on_timer(x.generation, now_us / 1000, fx);
        carry_out(self, now_us, fx, {}, {}, {});
      },
  };
}

} // namespace

caf::actor spawn_negotiation(caf::local_actor* parent, rules core, effects opening,
                             peers with) {
  return parent->spawn(negotiation_behavior, std::move(core), std::move(opening),
                       std::move(with));
}

} // namespace parley::actors::negotiation
