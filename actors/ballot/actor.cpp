#include "actors/ballot/actor.hpp"

#include <chrono>
#include <optional>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/ballot/rules.hpp"
#include "actors/common/consensus_shell.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::ballot {

namespace {

struct ballot_state {
  static inline const char* name = "parley.ballot";
  std::optional<rules> core;
  peers with;
  std::optional<wall_clock> clock;
};

using ballot_pointer = ballot_actor::stateful_pointer<ballot_state>;

messages::ballot_event make_event(ballot_pointer self,
                                  messages::ballot_event_kind kind) {
  auto& st = self->state;
  messages::ballot_event x;
  x.kind = kind;
  x.at_ms = st.clock->now_ms();
  x.ballot_id = st.core->spec().id;
  x.topic = st.core->spec().topic;
  return x;
}

/// The proposal event, carrying the whole spec.
messages::ballot_event make_event_base(const messages::ballot_spec& spec,
                                       std::int64_t now_ms) {
  messages::ballot_event x;
  x.kind = messages::ballot_event_kind::propose;
  x.at_ms = now_ms;
  x.ballot_id = spec.id;
  x.topic = spec.topic;
  x.spec = spec;
  return x;
}

void carry_out(ballot_pointer self, effects& fx, const std::string& voter) {
  auto& st = self->state;
  if (fx.refused)
    consensus::publish_error(self, st.with, fx.refused->code,
                             std::move(fx.refused->message), st.clock->now_ms(),
                             st.core->spec().id, voter);
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
    self->quit();
}

ballot_actor::behavior_type ballot_behavior(ballot_pointer self, messages::ballot_spec spec,
                              peers with) {
  auto& st = self->state;
  st.with = std::move(with);
  st.clock.emplace(self->system());
  if (auto why = validate(spec); !why.empty()) {
    consensus::publish_error(self, st.with, messages::error_code::invalid_ballot,
                             "ballot " + spec.id + ": " + why, st.clock->now_ms(),
                             spec.id, {});
    self->quit();
    return {[](const messages::vote&) {}, [](const messages::consensus_timer&) {}};
  }
  auto window = messages::saturating_milliseconds<caf::timespan>(spec.window_ms);
  if (st.with.events.wants(messages::topic::ballot_proposed))
    consensus::publish(self, st.with, messages::topic::ballot_proposed,
                       caf::make_message(make_event_base(spec, st.clock->now_ms())));
  st.core.emplace(std::move(spec));
  consensus::open(
      self, st.with,
      [self] {
        return caf::make_message(messages::ballot_invite{
            caf::actor_cast<ballot_actor>(self), self->state.core->spec()});
      },
      window);
  return {
      [self](const messages::vote& x) {
        effects fx;
        self->state.core->on_vote(x, fx);
        carry_out(self, fx, x.voter);
      },
      [self](const messages::consensus_timer& x) {
        if (x.generation != consensus::window_generation)
          return;
        effects fx;
        self->state.core->on_window_closed(fx);
        carry_out(self, fx, {});
      },
  };
}

} // namespace

ballot_actor spawn_ballot(caf::actor_system& sys, messages::ballot_spec spec,
                        peers with) {
  return sys.spawn(ballot_behavior, std::move(spec), std::move(with));
}

} // namespace parley::actors::ballot
