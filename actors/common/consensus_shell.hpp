#pragma once

// What a ballot's and an auction's actor shells do the same way.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "caf/message.hpp"

#include "actors/agent/interface.hpp"
#include "actors/bus/interface.hpp"
#include "actors/common/actor_pool.hpp"
#include "actors/common/forward.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/shared_behavior.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/timer/interface.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/error_code.hpp"
#include "messages/event_sink.hpp"
#include "messages/events.hpp"

namespace parley::actors::consensus {

/// Who a ballot or an auction talks to. Any handle may be remote or unset.
using peers = messages::consensus_peers;

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

  /// Goes back to its pool for the next one.
  void release() {
    previous_id = state ? state->core.spec().id : std::string{};
    state.reset();
    go_home(this, home_);
  }

  /// Whether a vote or bid for `id` was meant for the one this actor ran
  /// before: it is dropped, as an actor that no longer exists would drop it
  /// (one for any other id goes to the rules, which refuse it with E025).
  bool meant_for_earlier(const std::string& id) const {
    return !state || (id == previous_id && id != state->core.spec().id);
  }

  /// Lets go of every handle as the actor stops.
  void on_exit() override { state.reset(); }

  std::optional<running_state> state;
  std::optional<wall_clock> clock;
  /// The window timer of the one it runs now (one per ballot or auction).
  std::uint64_t generation = 0;

private:
  std::string previous_id;
  std::weak_ptr<actor_pool<Handle>> home_;
};

/// Publishes `msg`, an event of topic `t`, if someone listens.
template <class Self>
void publish(Self* self, const peers& with, messages::topic t, caf::message msg) {
  if (with.events.wants(t))
    actors::publish(self, with.events, t, std::move(msg));
}

/// Publishes an error about the ballot or auction `id` (its id goes in the
/// problem's negotiation_id), and about `agent` when it refuses an agent's
/// vote or bid.
template <class Self>
void publish_error(Self* self, const peers& with, messages::error_code code,
                   std::string text, std::int64_t at_ms, const std::string& id,
                   const std::string& agent) {
  if (!with.events.wants(messages::topic::error))
    return;
  actors::publish(
      self, with.events, messages::topic::error,
      messages::problem_event{
          messages::severity::error, code, std::move(text), at_ms, {}, id, agent, {}});
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
