#include "actors/negotiation/actor.hpp"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/forward.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/shared_behavior.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/negotiation/rules.hpp"
#include "actors/negotiation/scoring.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::negotiation {

namespace {

/// The negotiation an actor runs now.
struct negotiation_state {
  rules core;
  agent_actor initiator;
  agent_actor responder;
  room_actor room;
  timer_actor timers;
  messages::event_sink events;
  /// When the latest offer was passed on (for the replies' round trips).
  std::int64_t offered_at_us = 0;
  /// Which parties hear of an expiry (see `room_member::hears_expiry`).
  bool initiator_hears_expiry = false;
  bool responder_hears_expiry = false;
  /// Until when (Unix ms) the subscribers that settle hear nothing of this
  /// negotiation but its end; zero: they hear every event
  /// (`messages::subscription::settle_ms`).
  std::int64_t quiet_until_ms = 0;
  /// The core's timer as it asked for it (armed earlier while quiet).
  timer_request deadline;
  /// Scores the end when both parties value outcomes over the same domain.
  std::shared_ptr<const deal_scorer> scorer;
};

/// The state of a negotiation that starts now between `peers`.
negotiation_state start_state(rules core, messages::negotiation_peers& peers,
                              std::int64_t now_us) {
  return negotiation_state{
      std::move(core),
      std::move(peers.initiator),
      std::move(peers.responder),
      std::move(peers.room),
      std::move(peers.timers),
      std::move(peers.events),
      now_us,
      peers.initiator_hears_expiry,
      peers.responder_hears_expiry,
      0,
      {},
      scorer_for(peers.initiator_valuation, peers.responder_valuation)};
}

/// What an actor back in its pool keeps of the negotiation it ran last: a message the
/// room relayed before it heard of the end still gets the room's warning (an ended
/// negotiation: docs/protocols/bilateral.md, "Rooms") instead of vanishing.
struct ended_run {
  std::string room_id;
  messages::event_sink events;
};

class negotiation_impl
    : public shared_behavior_actor<negotiation_impl, negotiation_actor::base> {
public:
  negotiation_impl(caf::actor_config& cfg,
                   std::weak_ptr<actor_pool<negotiation_actor>> home)
      : shared_behavior_actor(cfg), home_(std::move(home)) {}

  const char* name() const override { return "parley.negotiation"; }

  static negotiation_actor::behavior_type make_shared_behavior();

  void start() { clock.emplace(system()); }

  /// Goes back to its pool for the next negotiation (or stops, when its
  /// node is stopping).
  void release() {
    last = ended_run{state->core.room_id(), std::move(state->events)};
    state.reset();
    go_home(this, home_);
  }

  /// Lets go of every handle as the actor stops.
  void on_exit() override {
    state.reset();
    last.reset();
  }

  std::optional<negotiation_state> state;
  std::optional<ended_run> last;
  std::optional<wall_clock> clock;
  /// How many negotiations this actor has run: each one's timer generations
  /// start at runs << 32, so a timer of an earlier one never matches.
  std::uint64_t runs = 0;

private:
  std::weak_ptr<actor_pool<negotiation_actor>> home_;
};

const agent_actor& handle_of(negotiation_state& st, party x) {
  return x == party::initiator ? st.initiator : st.responder;
}

/// Publishes `p` about negotiation `negotiation_id` of room `room_id` on
/// `events`, if anyone listens to its severity.
void publish_problem(negotiation_impl* self, const messages::event_sink& events,
                     const problem& p, const std::string& room_id,
                     const std::string& negotiation_id, const std::string& agent_id,
                     const std::string& message_id) {
  auto ev = p.severity == messages::severity::error ? messages::topic::error
                                                    : messages::topic::warning;
  if (!events.wants(ev))
    return;
  publish(self, events, ev,
          messages::problem_event{p.severity, p.code, p.message, self->clock->now_ms(),
                                  room_id, negotiation_id, agent_id, message_id});
}

/// Publishes `p` about the negotiation this actor runs.
void publish_problem(negotiation_impl* self, const problem& p,
                     const std::string& agent_id, const std::string& message_id) {
  auto& st = *self->state;
  publish_problem(self, st.events, p, st.core.room_id(), st.core.id(), agent_id,
                  message_id);
}

/// Passes `msg` (the agent message just applied, or the opening proposal) on
/// to `to`, as the negotiation: its answers come straight back here, also
/// from another node (which keeps one proxy per pooled actor, not one per
/// negotiation).
void relay(negotiation_impl* self, party to, caf::message msg) {
  forward_message(self, handle_of(*self->state, to), std::move(msg));
}

/// The offer `x` (a proposal or counter) as handed to `to`: with the terms
/// `to` answers it on.
template <class Offer>
caf::message offer_to(negotiation_impl* self, party to, Offer x) {
  return caf::make_message(std::move(x), self->state->core.terms_for(to));
}

/// Whether the subscribers that settle hear nothing of the negotiation now.
bool quiet(const negotiation_state& st) {
  return st.quiet_until_ms > 0;
}

/// Who hears a `started` or `updated` now.
audience audience_now(const negotiation_state& st) {
  return quiet(st) ? audience::at_once : audience::everyone;
}

/// Whether anyone in `to` hears an event of topic `t`.
bool heard(const negotiation_state& st, messages::topic t, audience to) {
  return to == audience::at_once ? st.events.wants_at_once(t) : st.events.wants(t);
}

/// Publishes `started` to `to` (when someone listens there) with a copy of
/// the record as it is now: opened, or with the rounds since when it
/// announces itself to the subscribers that settle.
void publish_start(negotiation_impl* self, std::int64_t now_us,
                   const std::string& message_id, audience to) {
  auto& st = *self->state;
  if (!heard(st, messages::topic::negotiation_started, to))
    return;
  const auto& r = st.core.record();
  messages::negotiation_event x;
  x.kind = messages::negotiation_event_kind::started;
  x.at_us = now_us;
  x.negotiation_id = r.id;
  x.room_id = r.room_id;
  x.message_id = message_id;
  x.record = messages::shared_record{r};
  publish(self, st.events, messages::topic::negotiation_started, std::move(x), to);
}

/// Ends the quiet: the subscribers that settle hear one `started` with the
/// record so far, then every event.
void announce(negotiation_impl* self, std::int64_t now_us) {
  auto& st = *self->state;
  st.quiet_until_ms = 0;
  const auto& rounds = st.core.record().rounds;
  publish_start(self, now_us,
                rounds.empty() ? std::string{} : rounds.front().message_id,
                audience::settling);
}

/// Arms the core's timer `x`; while the negotiation is quiet, no later than
/// the quiet's end, so that it wakes to announce itself.
void arm(negotiation_impl* self, const timer_request& x) {
  auto& st = *self->state;
  st.deadline = x;
  auto due = quiet(st) ? std::min(x.due_ms, st.quiet_until_ms) : x.due_ms;
  self->send(st.timers, messages::arm_timer{due, x.generation});
}

/// Publishes `updated` (when someone listens) with what the counter changed.
void publish_update(negotiation_impl* self, std::int64_t now_us,
                    const std::string& message_id, std::int64_t round_trip_us) {
  auto& st = *self->state;
  auto to = audience_now(st);
  if (!heard(st, messages::topic::negotiation_updated, to))
    return;
  const auto& r = st.core.record();
  messages::negotiation_event x;
  x.kind = messages::negotiation_event_kind::updated;
  x.at_us = now_us;
  x.negotiation_id = r.id;
  x.room_id = r.room_id;
  x.message_id = message_id;
  x.round = r.rounds.back();
  x.convergence_score = r.convergence_score;
  x.round_trip_us = round_trip_us;
  publish(self, st.events, messages::topic::negotiation_updated, std::move(x), to);
}

/// Sends the terminal event, the final record moved into it, to the
/// subscribers, on expiry the parties that keep state per negotiation, and
/// the room: one message shared by all of them. The room last, as it always
/// was (a worker runs what it sent last first): sent first, it doubled W2's
/// p99 lateness (medians of five runs, 50 against 21 ms).
void publish_end(negotiation_impl* self, messages::negotiation_event_kind kind,
                 std::int64_t now_us, const std::string& message_id,
                 std::int64_t round_trip_us, bool notify_parties) {
  auto& st = *self->state;
  messages::negotiation_event x;
  x.kind = kind;
  x.at_us = now_us;
  x.negotiation_id = st.core.id();
  x.room_id = st.core.room_id();
  x.message_id = message_id;
  x.round_trip_us = round_trip_us;
  auto record = st.core.take_record();
  if (st.scorer)
    record.score = st.scorer->score(record);
  x.record = messages::shared_record{std::move(record)};
  x.unannounced = quiet(st);
  auto topic = topic_of(x);
  auto ended = caf::make_message(std::move(x));
  if (st.events.wants(topic))
    publish(self, st.events, topic, ended);
  if (notify_parties) {
    if (st.initiator_hears_expiry)
      forward_message(self, st.initiator, ended);
    if (st.responder_hears_expiry)
      forward_message(self, st.responder, ended);
  }
  forward_message(self, st.room, std::move(ended));
}

/// Carries out the effects of one input; `relayed` is the agent message just
/// applied, for `fx.relay_to`.
void carry_out(negotiation_impl* self, std::int64_t now_us, effects& fx,
               caf::message relayed, const std::string& agent_id,
               const std::string& message_id) {
  auto& st = *self->state;
  if (fx.refused)
    publish_problem(self, *fx.refused, agent_id, message_id);
  if (fx.event) {
    using kind = messages::negotiation_event_kind;
    auto is_reply = *fx.event != kind::started && *fx.event != kind::expired;
    auto round_trip = is_reply ? now_us - st.offered_at_us : 0;
    if (fx.relay_to)
      st.offered_at_us = now_us;
    if (quiet(st) && !st.core.terminal() && now_us / 1000 >= st.quiet_until_ms)
      announce(self, now_us);
    if (st.core.terminal())
      publish_end(self, *fx.event, now_us, message_id, round_trip, fx.notify_parties);
    else
      publish_update(self, now_us, message_id, round_trip);
  }
  if (fx.relay_to)
    relay(self, *fx.relay_to, std::move(relayed));
  if (fx.arm)
    arm(self, *fx.arm);
  if (st.core.terminal())
    self->release();
}

/// Opens the negotiation the room checked and carries out the opening.
void open(negotiation_impl* self, messages::open_negotiation& x) {
  auto message_id = x.opening.message_id;
  auto proposal = messages::agent_proposal{message_id, x.opening.id,
                                           x.opening.initiator, x.opening.proposal};
  auto opened = messages::negotiation_opened{message_id, x.opening.id};
  effects fx;
  auto first_generation = ++self->runs << 32;
  self->state.emplace(
      start_state(rules{std::move(x.opening), x.at_us / 1000, fx, first_generation},
                  x.peers, x.at_us));
  auto& st = *self->state;
  if (auto settle_ms = st.events.settle_ms(); settle_ms > 0)
    st.quiet_until_ms = x.at_us / 1000 + settle_ms;
  publish_start(self, x.at_us, message_id, audience_now(st));
  // Before the proposal: the initiator learns of the negotiation before any
  // answer to it can reach it.
  self->send(st.initiator, std::move(opened));
  relay(self, *fx.relay_to, offer_to(self, *fx.relay_to, std::move(proposal)));
  arm(self, *fx.arm);
}

/// The agent message that made `round` (a proposal or counter), as its
/// sender sent it, handed to `to`.
caf::message offer_of(negotiation_impl* self, party to,
                      const messages::negotiation_round& round) {
  const auto& negotiation_id = self->state->core.id();
  if (round.action == messages::round_action::propose)
    return offer_to(self, to,
                    messages::agent_proposal{round.message_id, negotiation_id,
                                             round.from_agent, round.proposal});
  return offer_to(self, to,
                  messages::agent_counter{round.message_id, negotiation_id,
                                          round.from_agent, round.proposal,
                                          round.reason});
}

/// Resumes a negotiation the store kept (crash recovery) and carries out
/// what the rules decide: an expiry at once, or the latest offer handed
/// again to the party to move, and its timer.
void take_up(negotiation_impl* self, messages::resume_negotiation& x) {
  effects fx;
  auto now_us = self->clock->now_us();
  auto first_generation = ++self->runs << 32;
  self->state.emplace(start_state(
      rules::resume(std::move(x.record), now_us / 1000, fx, first_generation), x.peers,
      now_us));
  caf::message offer;
  if (fx.relay_to) {
    if (const auto* round = self->state->core.latest_offer())
      offer = offer_of(self, *fx.relay_to, *round);
    else
      fx.relay_to.reset();
  }
  carry_out(self, now_us, fx, std::move(offer), {}, {});
}

/// Applies one agent message to the rules and carries out the result.
/// Drops a message meant for a negotiation this actor ran before, with the
/// warning the room gives one that comes after the end.
template <class AgentMessage>
void drop_late(negotiation_impl* self, const AgentMessage& x) {
  if (!self->last)
    return;
  publish_problem(
      self, self->last->events,
      {messages::severity::warning, messages::error_code::negotiation_not_active,
       "Received message for non-active negotiation " + x.negotiation_id + "; dropped"},
      self->last->room_id, x.negotiation_id, x.from_agent, x.message_id);
}

/// The agent message `x`, just applied, as relayed to `to`: an offer with
/// `to`'s terms, an accept or reject as it came.
template <class AgentMessage>
caf::message relayed(negotiation_impl* self, party to, AgentMessage& x) {
  if constexpr (std::is_same_v<AgentMessage, messages::agent_proposal> ||
                std::is_same_v<AgentMessage, messages::agent_counter>)
    return offer_to(self, to, std::move(x));
  else
    // `x` lives in the mailbox element whose content moves into the message
    // (an element sent as values gives its strings away).
    return self->current_mailbox_element()->move_content_to_message();
}

template <class AgentMessage>
void on_agent_message(negotiation_impl* self, AgentMessage& x) {
  if (!self->state) {
    drop_late(self, x);
    return;
  }
  effects fx;
  auto now_us = self->clock->now_us();
  self->state->core.on_message(x, now_us / 1000, fx);
  if (!fx.relay_to) {
    carry_out(self, now_us, fx, {}, x.from_agent, x.message_id);
    return;
  }
  // Relaying gives `x`'s strings away: keep the ids first.
  auto agent_id = x.from_agent;
  auto message_id = x.message_id;
  auto msg = relayed(self, *fx.relay_to, x);
  carry_out(self, now_us, fx, std::move(msg), agent_id, message_id);
}

negotiation_actor::behavior_type negotiation_impl::make_shared_behavior() {
  return {
      [](messages::open_negotiation& x) { open(&running(), x); },
      [](messages::resume_negotiation& x) { take_up(&running(), x); },
      [](messages::agent_proposal& x) { on_agent_message(&running(), x); },
      [](messages::agent_counter& x) { on_agent_message(&running(), x); },
      [](messages::agent_accept& x) { on_agent_message(&running(), x); },
      [](messages::agent_reject& x) { on_agent_message(&running(), x); },
      [](const messages::timer_due& x) {
        auto* self = &running();
        if (!self->state)
          return;
        auto& st = *self->state;
        auto now_us = self->clock->now_us();
        if (x.generation == st.deadline.generation &&
            now_us / 1000 < st.deadline.due_ms) {
          // Armed early to end the quiet: the deadline is still ahead. (A
          // deadline that ends the quiet ends the negotiation, unannounced.)
          if (quiet(st))
            announce(self, now_us);
          arm(self, st.deadline);
          return;
        }
        effects fx;
        st.core.on_timer(x.generation, now_us / 1000, fx);
        carry_out(self, now_us, fx, {}, {}, {});
      },
      // The room passes the barrier on when this answer reaches it: behind
      // everything the negotiation published before.
      [](const messages::barrier&) {},
      [](messages::shutdown_atom, const std::string& negotiation_id,
         const std::string& why) {
        auto* self = &running();
        if (!self->state || self->state->core.id() != negotiation_id)
          return; // that negotiation ended: this actor runs another one now
        // What the record has of it stays there.
        if (quiet(*self->state))
          announce(self, self->clock->now_us());
        publish_problem(self,
                        problem{messages::severity::error,
                                messages::error_code::node_unavailable,
                                "Negotiation aborted: its room stopped (" + why + ")"},
                        {}, {});
        self->quit();
      },
  };
}

} // namespace

negotiation_actor spawn_negotiation(caf::actor_system& sys,
                                    std::weak_ptr<actor_pool<negotiation_actor>> home) {
  return sys.spawn<negotiation_impl, caf::lazy_init>(std::move(home));
}

} // namespace parley::actors::negotiation
