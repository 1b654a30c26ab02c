#include "actors/auction/actor.hpp"

#include <chrono>
#include <optional>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/auction/rules.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::auction {

namespace {

/// The one window timer's generation (an auction arms exactly one timer).
constexpr std::uint64_t window_generation = 1;

struct auction_state {
  static inline const char* name = "parley.auction";
  std::optional<rules> core;
  peers with;
  std::optional<wall_clock> clock;
};

using auction_actor = caf::stateful_actor<auction_state>;

void publish(auction_actor* self, const caf::message& msg) {
  if (self->state.with.bus)
    self->send(self->state.with.bus, msg);
}

messages::auction_event make_event(auction_actor* self,
                                   messages::auction_event_kind kind) {
  auto& st = self->state;
  messages::auction_event x;
  x.kind = kind;
  x.at_ms = st.clock->now_ms();
  x.auction_id = st.core->spec().id;
  x.task = st.core->spec().task;
  return x;
}

void carry_out(auction_actor* self, effects& fx, const std::string& bidder) {
  auto& st = self->state;
  if (fx.refused)
    publish(self,
            caf::make_message(messages::problem_event{messages::severity::error,
                                                      fx.refused->code,
                                                      std::move(fx.refused->message),
                                                      st.clock->now_ms(),
                                                      {},
                                                      st.core->spec().id,
                                                      bidder,
                                                      {}}));
  if (fx.accepted) {
    auto x = make_event(self, messages::auction_event_kind::bid);
    x.placed = std::move(*fx.accepted);
    publish(self, caf::make_message(std::move(x)));
  }
  if (fx.resolved) {
    auto x = make_event(self, messages::auction_event_kind::result);
    x.outcome = std::move(*fx.resolved);
    auto msg = caf::make_message(std::move(x));
    publish(self, msg);
    if (st.with.reporter)
      self->send(st.with.reporter, msg);
    self->quit();
  }
}

caf::behavior auction_behavior(auction_actor* self, messages::auction_spec spec,
                               peers with) {
  auto& st = self->state;
  st.with = std::move(with);
  st.clock.emplace(self->system());
  if (auto why = validate(spec); !why.empty()) {
    publish(self, caf::make_message(
                      messages::problem_event{messages::severity::error,
                                              messages::error_code::invalid_ballot,
                                              "auction " + spec.id + ": " + why,
                                              st.clock->now_ms(),
                                              {},
                                              spec.id,
                                              {},
                                              {}}));
    self->quit();
    return {};
  }
  auto window = std::chrono::milliseconds(spec.window_ms);
  st.core.emplace(std::move(spec));
  if (!st.with.invite.empty()) {
    auto invite = caf::make_message(
        messages::auction_invite{caf::actor_cast<caf::actor>(self), st.core->spec()});
    for (const auto& entry : st.with.invite)
      self->send(entry.second, invite);
    st.with.invite.clear();
  }
  self->delayed_send(self, window, messages::consensus_timer{window_generation});
  return {
      [self](const messages::bid& x) {
        effects fx;
        self->state.core->on_bid(x, fx);
        carry_out(self, fx, x.bidder);
      },
      [self](const messages::consensus_timer& x) {
        if (x.generation != window_generation)
          return;
        effects fx;
        self->state.core->on_window_closed(fx);
        carry_out(self, fx, {});
      },
      [self](const messages::barrier& x) { publish(self, caf::make_message(x)); },
  };
}

} // namespace

caf::actor spawn_auction(caf::actor_system& sys, messages::auction_spec spec,
                         peers with) {
  return sys.spawn(auction_behavior, std::move(spec), std::move(with));
}

} // namespace parley::actors::auction
