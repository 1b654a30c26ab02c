#include "actors/auction/actor.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/auction/rules.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::auction {

namespace {

class auction_impl
    : public consensus::pooled_actor<auction_impl, auction_actor, rules> {
public:
  using pooled_actor::pooled_actor;

  const char* name() const override { return "parley.auction"; }

  static auction_actor::behavior_type make_shared_behavior();
};

messages::auction_event make_event(auction_impl* self,
                                   messages::auction_event_kind kind) {
  const auto& spec = self->state->core.spec();
  messages::auction_event x;
  x.kind = kind;
  x.at_ms = self->clock->now_ms();
  x.auction_id = spec.id;
  x.task = spec.task;
  return x;
}

void carry_out(auction_impl* self, effects& fx, const std::string& bidder) {
  auto& st = *self->state;
  if (fx.refused)
    consensus::publish_error(self, st.with.events, fx.refused->code,
                             std::move(fx.refused->message), self->clock->now_ms(),
                             st.core.spec().id, bidder);
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
    self->release();
  }
}

void open_auction(auction_impl* self, messages::open_auction& x) {
  if (self->state)
    return; // its pool hands out idle actors only
  self->opening(x.with.events);
  auto now_ms = self->clock->now_ms();
  if (auto why = validate(x.spec); !why.empty()) {
    consensus::publish_error(self, x.with.events, messages::error_code::invalid_ballot,
                             "auction " + x.spec.id + ": " + why, now_ms, x.spec.id,
                             {});
    self->release();
    return;
  }
  auto due_ms = messages::saturating_add(now_ms, x.spec.window_ms);
  self->state.emplace(auction_impl::running_state{
      rules{std::move(x.spec)}, std::move(x.with), std::move(x.timers)});
  auto& st = *self->state;
  consensus::open(
      self, st.with,
      [self] {
        return caf::make_message(messages::auction_invite{
            caf::actor_cast<auction_actor>(self), self->state->core.spec()});
      },
      st.timers, due_ms, ++self->generation);
}

auction_actor::behavior_type auction_impl::make_shared_behavior() {
  return {
      [](messages::open_auction& x) { open_auction(&running(), x); },
      [](const messages::bid& x) {
        auto* self = &running();
        if (consensus::refuse_outside(self, x.auction_id, x.bidder,
                                      messages::error_code::invalid_bid, "auction"))
          return;
        effects fx;
        self->state->core.on_bid(x, fx);
        carry_out(self, fx, x.bidder);
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

pool::pool(caf::actor_system& sys) : actor_pool(sys, &spawn_auction) {}

auction_actor spawn_auction(caf::actor_system& sys,
                            std::weak_ptr<actor_pool<auction_actor>> home) {
  return sys.spawn<auction_impl, caf::lazy_init>(std::move(home));
}

auction_actor open(pool& auctions, messages::auction_spec spec, peers with,
                   timer_actor timers) {
  auto x = auctions.acquire();
  caf::anon_send(
      x, messages::open_auction{std::move(spec), std::move(with), std::move(timers)});
  return x;
}

} // namespace parley::actors::auction
