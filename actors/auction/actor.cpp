#include "actors/auction/actor.hpp"

#include <chrono>
#include <optional>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/auction/rules.hpp"
#include "actors/common/consensus_shell.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::auction {

namespace {

struct auction_state {
  static inline const char* name = "parley.auction";
  std::optional<rules> core;
  peers with;
  std::optional<wall_clock> clock;
};

using auction_pointer = auction_actor::stateful_pointer<auction_state>;

messages::auction_event make_event(auction_pointer self,
                                   messages::auction_event_kind kind) {
  auto& st = self->state;
  messages::auction_event x;
  x.kind = kind;
  x.at_ms = st.clock->now_ms();
  x.auction_id = st.core->spec().id;
  x.task = st.core->spec().task;
  return x;
}

void carry_out(auction_pointer self, effects& fx, const std::string& bidder) {
  auto& st = self->state;
  if (fx.refused)
    consensus::publish_error(self, st.with, fx.refused->code,
                             std::move(fx.refused->message), st.clock->now_ms(),
                             st.core->spec().id, bidder);
  if (fx.accepted && st.with.events.wants(messages::topic::auction_bid)) {
    auto x = make_event(self, messages::auction_event_kind::bid);
    x.placed = std::move(*fx.accepted);
    consensus::publish(self, st.with, messages::topic::auction_bid,
                       caf::make_message(std::move(x)));
  }
  if (fx.resolved) {
    auto x = make_event(self, messages::auction_event_kind::result);
    x.outcome = std::move(*fx.resolved);
    consensus::report(self, st.with, messages::topic::auction_result,
                      caf::make_message(std::move(x)));
    self->quit();
  }
}

auction_actor::behavior_type auction_behavior(auction_pointer self, messages::auction_spec spec,
                               peers with) {
  auto& st = self->state;
  st.with = std::move(with);
  st.clock.emplace(self->system());
  if (auto why = validate(spec); !why.empty()) {
    consensus::publish_error(self, st.with, messages::error_code::invalid_ballot,
                             "auction " + spec.id + ": " + why, st.clock->now_ms(),
                             spec.id, {});
    self->quit();
    return {[](const messages::bid&) {}, [](const messages::consensus_timer&) {}};
  }
  auto window = messages::saturating_milliseconds<caf::timespan>(spec.window_ms);
  st.core.emplace(std::move(spec));
  consensus::open(
      self, st.with,
      [self] {
        return caf::make_message(messages::auction_invite{
            caf::actor_cast<auction_actor>(self), self->state.core->spec()});
      },
      window);
  return {
      [self](const messages::bid& x) {
        effects fx;
        self->state.core->on_bid(x, fx);
        carry_out(self, fx, x.bidder);
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

auction_actor spawn_auction(caf::actor_system& sys, messages::auction_spec spec,
                         peers with) {
  return sys.spawn(auction_behavior, std::move(spec), std::move(with));
}

} // namespace parley::actors::auction
