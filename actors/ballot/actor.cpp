#include "actors/ballot/actor.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/ballot/rules.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::ballot {

namespace {

class ballot_impl : public consensus::pooled_actor<ballot_impl, ballot_actor, rules> {
public:
  using pooled_actor::pooled_actor;

  const char* name() const override { return "parley.ballot"; }

  static ballot_actor::behavior_type make_shared_behavior();
};

messages::ballot_event make_event(ballot_impl* self, messages::ballot_event_kind kind) {
  const auto& spec = self->state->core.spec();
  messages::ballot_event x;
  x.kind = kind;
  x.at_ms = self->clock->now_ms();
  x.ballot_id = spec.id;
  x.topic = spec.topic;
  return x;
}

void carry_out(ballot_impl* self, effects& fx, const std::string& voter) {
  auto& st = *self->state;
  if (fx.refused)
    consensus::publish_error(self, st.with.events, fx.refused->code,
                             std::move(fx.refused->message), self->clock->now_ms(),
                             st.core.spec().id, voter);
  if (fx.accepted && st.with.events.wants(messages::topic::ballot_vote)) {
    auto x = make_event(self, messages::ballot_event_kind::vote);
    x.cast = std::move(*fx.accepted);
    consensus::publish(self, st.with, messages::topic::ballot_vote,
                       caf::make_message(std::move(x)));
  }
  if (fx.resolved) {
    auto x = make_event(self, messages::ballot_event_kind::result);
    x.outcome = std::move(*fx.resolved);
    consensus::report(self, st.with, messages::topic::ballot_result,
                      caf::make_message(std::move(x)));
  }
  if (fx.finished)
    self->release();
}

void open_ballot(ballot_impl* self, messages::open_ballot& x) {
  if (self->state)
    return; // its pool hands out idle actors only
  self->opening(x.with.events);
  auto now_ms = self->clock->now_ms();
  if (auto why = validate(x.spec); !why.empty()) {
    consensus::publish_error(self, x.with.events, messages::error_code::invalid_ballot,
                             "ballot " + x.spec.id + ": " + why, now_ms, x.spec.id, {});
    self->release();
    return;
  }
  if (x.with.events.wants(messages::topic::ballot_proposed)) {
    messages::ballot_event proposed;
    proposed.kind = messages::ballot_event_kind::propose;
    proposed.at_ms = now_ms;
    proposed.ballot_id = x.spec.id;
    proposed.topic = x.spec.topic;
    proposed.spec = x.spec;
    consensus::publish(self, x.with, messages::topic::ballot_proposed,
                       caf::make_message(std::move(proposed)));
  }
  auto due_ms = messages::saturating_add(now_ms, x.spec.window_ms);
  self->state.emplace(ballot_impl::running_state{
      rules{std::move(x.spec)}, std::move(x.with), std::move(x.timers)});
  auto& st = *self->state;
  consensus::open(
      self, st.with,
      [self] {
        return caf::make_message(messages::ballot_invite{
            caf::actor_cast<ballot_actor>(self), self->state->core.spec()});
      },
      st.timers, due_ms, ++self->generation);
}

ballot_actor::behavior_type ballot_impl::make_shared_behavior() {
  return {
      [](messages::open_ballot& x) { open_ballot(&running(), x); },
      [](const messages::vote& x) {
        auto* self = &running();
        if (consensus::refuse_outside(self, x.ballot_id, x.voter,
                                      messages::error_code::invalid_vote, "ballot"))
          return;
        effects fx;
        self->state->core.on_vote(x, fx);
        carry_out(self, fx, x.voter);
      },
      [](const messages::timer_due& x) {
        auto* self = &running();
        if (!self->state || x.generation != self->generation)
          return;
        effects fx;
        self->state->core.on_window_closed(fx);
        carry_out(self, fx, {});
      },
  };
}

} // namespace

pool::pool(caf::actor_system& sys) : actor_pool(sys, &spawn_ballot) {}

ballot_actor spawn_ballot(caf::actor_system& sys,
                          std::weak_ptr<actor_pool<ballot_actor>> home) {
  return sys.spawn<ballot_impl, caf::lazy_init>(std::move(home));
}

ballot_actor open(pool& ballots, messages::ballot_spec spec, peers with,
                  timer_actor timers) {
  auto x = ballots.acquire();
  caf::anon_send(
      x, messages::open_ballot{std::move(spec), std::move(with), std::move(timers)});
  return x;
}

} // namespace parley::actors::ballot
