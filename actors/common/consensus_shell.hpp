#pragma once

// What a ballot's and an auction's actor shells do the same way.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "caf/message.hpp"

#include "actors/common/actor_pool.hpp"
#include "actors/common/forward.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/shared_behavior.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/error_code.hpp"
#include "messages/event_sink.hpp"
#include "messages/events.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/bus.hpp"
#include "messages/handles/timer.hpp"

namespace parley::actors::consensus {

/// Who a ballot or an auction talks to. Any handle may be remote or unset.
using peers = messages::consensus_peers;

/// The ballots or auctions an actor ran and decided, by the sink each
/// published to: a vote or bid for one of them is refused (E024) however late
/// it comes (docs/protocols/ballots-and-auctions.md, "After the result"), also once the
/// actor runs another. Each costs its id in a hash set; the sinks are few
/// (one per bus the creators publish to).
class decided_ones {
public:
  /// `id` was decided; its events went to `events`.
  void add(const std::string& id, const messages::event_sink& events) {
    for (auto& [sink, ids] : by_sink_)
      if (same_sink(sink, events)) {
        ids.insert(id);
        return;
      }
    by_sink_.emplace_back(events, std::unordered_set<std::string>{id});
  }

  /// The sink `id` published to if it is one of them, else null.
  const messages::event_sink* find(const std::string& id) const {
    for (const auto& [sink, ids] : by_sink_)
      if (ids.count(id) > 0)
        return &sink;
    return nullptr;
  }

private:
  std::vector<std::pair<messages::event_sink, std::unordered_set<std::string>>>
      by_sink_;
};

/// The actor shell of a ballot or an auction (`Impl`), which its pool hands
/// out again once the one it runs is finished. `Rules` is the pure core.
template <class Impl, class Handle, class Rules>
class pooled_actor : public shared_behavior_actor<Impl, typename Handle::base> {
public:
  /// The ballot or auction an actor runs now.
  struct running_state {
    Rules core;
    peers with;
    timer_actor timers;
  };

  pooled_actor(caf::actor_config& cfg, std::weak_ptr<actor_pool<Handle>> home)
      : shared_behavior_actor<Impl, typename Handle::base>(cfg),
        home_(std::move(home)) {}

  void start() { clock.emplace(this->system()); }

  /// An `open_ballot` or `open_auction` came, valid or not, publishing to
  /// `events`.
  void opening(const messages::event_sink& events) { last_events = events; }

  /// Goes back to its pool for the next one. The one it ran (if it opened)
  /// was decided: it is kept in `decided`.
  void release() {
    if (state)
      decided.add(state->core.spec().id, state->with.events);
    state.reset();
    go_home(this, home_);
  }

  /// Lets go of every handle as the actor stops.
  void on_exit() override {
    state.reset();
    decided = decided_ones{};
    last_events = messages::event_sink{};
  }

  std::optional<running_state> state;
  std::optional<wall_clock> clock;
  /// The window timer of the one it runs now (one per ballot or auction).
  std::uint64_t generation = 0;
  /// Every one it ran and decided.
  decided_ones decided;
  /// Where the latest one it was asked to open publishes.
  messages::event_sink last_events;

private:
  std::weak_ptr<actor_pool<Handle>> home_;
};

/// Publishes `msg`, an event of topic `t`, if someone listens.
template <class Self>
void publish(Self* self, const peers& with, messages::topic t, caf::message msg) {
  if (with.events.wants(t))
    actors::publish(self, with.events, t, std::move(msg));
}

/// Publishes an error about the ballot or auction `id` to `events` (its id
/// goes in the problem's negotiation_id), and about `agent` when it refuses
/// an agent's vote or bid.
template <class Self>
void publish_error(Self* self, const messages::event_sink& events,
                   messages::error_code code, std::string text, std::int64_t at_ms,
                   const std::string& id, const std::string& agent) {
  if (!events.wants(messages::topic::error))
    return;
  actors::publish(
      self, events, messages::topic::error,
      messages::problem_event{
          messages::severity::error, code, std::move(text), at_ms, {}, id, agent, {}});
}

/// Refuses a vote or bid for `id` from `agent` unless it is for the one
/// `self` runs now (then it returns false: the rules judge it). One for a
/// ballot or auction `self` decided is refused with E024, published where
/// that one published; one for an id it never ran with `wrong_id`, where the
/// one it runs (or last ran) publishes. Either names `id` as the problem's
/// negotiation_id. `kind` names what it runs ("ballot").
template <class Self>
bool refuse_outside(Self* self, const std::string& id, const std::string& agent,
                    messages::error_code wrong_id, const char* kind) {
  if (self->state && self->state->core.spec().id == id)
    return false;
  auto now_ms = self->clock->now_ms();
  if (const auto* events = self->decided.find(id))
    publish_error(self, *events, messages::error_code::voting_closed,
                  id + " is already resolved", now_ms, id, agent);
  else
    publish_error(self, self->state ? self->state->with.events : self->last_events,
                  wrong_id, std::string{"no "} + kind + " " + id + " is open here",
                  now_ms, id, agent);
  return true;
}

/// Opens: sends the invite `make_invite()` builds (one message, shared) to
/// every invited agent, then forgets them, and arms the window with the
/// node's timer service (a `timer_due{generation}` at `due_ms`).
template <class Self, class MakeInvite>
void open(Self* self, peers& with, MakeInvite make_invite, const timer_actor& timers,
          std::int64_t due_ms, std::uint64_t generation) {
  if (!with.invite.empty()) {
    auto invite = make_invite();
    for (const auto& entry : with.invite)
      forward_message(self, entry.second, invite);
    with.invite.clear();
  }
  self->send(timers, messages::arm_timer{due_ms, generation});
}

/// Publishes the result (topic `t`) and sends it to the reporter.
template <class Self>
void report(Self* self, const peers& with, messages::topic t, caf::message result) {
  publish(self, with, t, result);
  if (with.reporter)
    forward_message(self, with.reporter, std::move(result));
}

} // namespace parley::actors::consensus
