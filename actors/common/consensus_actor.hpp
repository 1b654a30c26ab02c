#pragma once

// The one actor shell of ballots and auctions (docs/consensus.md): what
// `Kind` (ballot::kind, auction::kind) adds is its message types, topics,
// error codes and the fields of its events. Included only by
// actors/ballot/actor.cpp and actors/auction/actor.cpp.

#include <string>
#include <utility>

#include "caf/actor_cast.hpp"
#include "caf/make_message.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/consensus_shell.hpp"
#include "messages/time_limits.hpp"

namespace parley::actors::consensus {

/// A pooled actor that runs one ballot or auction at a time. `Kind` names:
/// `handle`, `rules`, `effects`, `spec`, `open_message`, `entry` (vote or
/// bid), `event`, `event_kind`, `invite`; `actor_name`, `noun`; the topics
/// `entry_topic` and `result_topic`; the codes `wrong_id` and
/// `invalid_spec`; and the functions `id_of(entry)`, `agent_of(entry)`,
/// `validate(spec)`, `take(rules&, entry, effects&)`, `event_of(spec, kind, at_ms)`,
/// `set_entry(event&, entry)`, `entry_kind`, `result_kind`,
/// `done(effects)` (the actor may go back to its pool) and
/// `on_open(self, open_message&, at_ms)` (before the invitations).
template <class Kind>
class kind_actor
    : public pooled_actor<kind_actor<Kind>, typename Kind::handle, typename Kind::rules> {
public:
  using handle = typename Kind::handle;
  using base = pooled_actor<kind_actor<Kind>, handle, typename Kind::rules>;
  using base::base;

  const char* name() const override { return Kind::actor_name; }

  static typename handle::behavior_type make_shared_behavior() {
    return {
        [](typename Kind::open_message& x) { kind_actor::running().open(x); },
        [](const typename Kind::entry& x) {
          auto* self = &kind_actor::running();
          if (refuse_outside(self, Kind::id_of(x), Kind::agent_of(x), Kind::wrong_id,
                             Kind::noun))
            return;
          typename Kind::effects fx;
          Kind::take(self->state->core, x, fx);
          self->carry_out(fx, Kind::agent_of(x));
        },
        [](const messages::timer_due& x) {
          auto* self = &kind_actor::running();
          if (!self->state || x.generation != self->generation)
            return;
          typename Kind::effects fx;
          self->state->core.on_window_closed(fx);
          self->carry_out(fx, {});
        },
    };
  }

private:
  typename Kind::event event_of(typename Kind::event_kind kind) {
    return Kind::event_of(this->state->core.spec(), kind, this->clock->now_ms());
  }

  void carry_out(typename Kind::effects& fx, const std::string& agent) {
    auto& st = *this->state;
    if (fx.refused)
      publish_error(this, st.with.events, fx.refused->code, std::move(fx.refused->message),
                    this->clock->now_ms(), st.core.spec().id, agent);
    if (fx.accepted && st.with.events.wants(Kind::entry_topic)) {
      auto x = event_of(Kind::entry_kind);
      Kind::set_entry(x, std::move(*fx.accepted));
      publish(this, st.with, Kind::entry_topic, caf::make_message(std::move(x)));
    }
    if (fx.resolved) {
      auto x = event_of(Kind::result_kind);
      x.outcome = std::move(*fx.resolved);
      report(this, st.with, Kind::result_topic, caf::make_message(std::move(x)));
    }
    if (Kind::done(fx))
      this->release();
  }

  void open(typename Kind::open_message& x) {
    if (this->state)
      return; // its pool hands out idle actors only
    this->opening(x.with.events);
    auto now_ms = this->clock->now_ms();
    if (auto why = Kind::validate(x.spec); !why.empty()) {
      publish_error(this, x.with.events, Kind::invalid_spec,
                    std::string{Kind::noun} + " " + x.spec.id + ": " + why, now_ms,
                    x.spec.id, {});
      this->release();
      return;
    }
    Kind::on_open(this, x, now_ms);
    auto due_ms = messages::saturating_add(now_ms, x.spec.window_ms);
    this->state.emplace(typename base::running_state{
        typename Kind::rules{std::move(x.spec)}, std::move(x.with), std::move(x.timers)});
    auto& st = *this->state;
    consensus::open(
        this, st.with,
        [this] {
          return caf::make_message(typename Kind::invite{caf::actor_cast<handle>(this),
                                                         this->state->core.spec()});
        },
        st.timers, due_ms, ++this->generation);
  }
};

} // namespace parley::actors::consensus
