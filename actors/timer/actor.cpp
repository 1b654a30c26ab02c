#include "actors/timer/actor.hpp"

#include <optional>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/wall_clock.hpp"
#include "actors/timer/timer_queue.hpp"
#include "messages/commands.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::timer {

namespace {

/// A timer and who armed it.
struct pending {
  timer_client_actor client;
  std::uint64_t generation = 0;
};

struct timer_state {
  static inline const char* name = "parley.timers";
  timer_queue<pending> queue;
  std::optional<wall_clock> clock;
  /// The due time of the tick on its way, and its number (an earlier timer
  /// makes the pending tick stale).
  std::optional<std::int64_t> armed_for;
  std::uint64_t tick = 0;
};

using timer_pointer = timer_actor::stateful_pointer<timer_state>;

/// Makes sure a tick is on its way for the earliest pending timer.
void rearm(timer_pointer self) {
  auto& st = self->state;
  auto due = st.queue.next_due();
  if (!due || (st.armed_for && *st.armed_for <= *due))
    return;
  st.armed_for = *due;
  self->delayed_send(self, st.clock->until(*due), messages::timer_tick{++st.tick});
}

timer_actor::behavior_type timer_behavior(timer_pointer self, int) {
  self->state.clock.emplace(self->system());
  return {
      [self](const messages::arm_timer& x) {
        self->state.queue.push(
            x.due_ms, pending{caf::actor_cast<timer_client_actor>(self->current_sender()),
                              x.generation});
        rearm(self);
      },
      [self](const messages::timer_tick& x) {
        auto& st = self->state;
        if (x.number != st.tick)
          return; // an earlier timer armed a newer tick
        st.armed_for.reset();
        // Due timers go through the scheduler's shared queue, spread over
        // every worker behind the work already waiting: sent from this
        // worker they would all run on it, after each other, while the other
        // workers keep starting new negotiations.
        st.queue.fire_due(st.clock->now_ms(), [](pending& p) {
          caf::anon_send(p.client, messages::timer_due{p.generation});
        });
        rearm(self);
      },
  };
}

} // namespace

timer_actor spawn_timer_service(caf::actor_system& sys) {
  // The argument only avoids CAF 0.17's null dereference for argument-less
  // function actors.
  return sys.spawn(timer_behavior, 0);
}

} // namespace parley::actors::timer
