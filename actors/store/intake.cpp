#include "actors/store/intake.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/wall_clock.hpp"
#include "messages/channel_event.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::store {

namespace {

struct intake_state {
  static inline const char* name = "parley.store.intake";
  store_actor store;
  std::vector<messages::negotiation_event> events;
  /// Whether the store was told of the events kept (it takes them all).
  bool told = false;
};

intake_actor::behavior_type
intake_behavior(intake_actor::stateful_pointer<intake_state> self, store_actor store) {
  self->state.store = std::move(store);
  return {
      [self](messages::negotiation_event& x) {
        auto& st = self->state;
        st.events.push_back(std::move(x));
        if (!st.told) {
          st.told = true;
          self->send(st.store, messages::events_atom::value);
        }
      },
      [](const messages::problem_event&) {},
      [](const messages::agent_event&) {},
      [](const messages::ballot_event&) {},
      [](const messages::auction_event&) {},
      [](const messages::channel_event&) {},
      [](const messages::barrier&) {},
      [self](messages::events_atom, std::vector<messages::negotiation_event>& spare) {
        auto& st = self->state;
        st.told = false;
        spare.clear();
        spare.swap(st.events);
        return std::move(spare);
      },
  };
}

} // namespace

intake_actor spawn_intake(caf::actor_system& sys, const store_actor& store) {
  // Simulated time (CAF's test coordinator) runs a scheduled actor only when
  // the runner steps it, and `parley run` waits for the store's last flush
  // without stepping: there the intake gets a thread of its own.
  if (simulated_time(sys))
    return sys.spawn<caf::detached>(intake_behavior, store);
  return sys.spawn(intake_behavior, store);
}

} // namespace parley::actors::store
