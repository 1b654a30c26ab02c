#include "actors/audit/actor.hpp"

#include <optional>
#include <string>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/wall_clock.hpp"
#include "messages/json.hpp"

namespace parley::actors::audit {

namespace {

struct audit_state {
  static inline const char* name = "parley.audit";
  std::shared_ptr<std::ostream> out;
  std::uint64_t seq = 0;
  std::optional<wall_clock> clock;
};

using audit_pointer = audit_actor::stateful_pointer<audit_state>;

template <class Event> void record(audit_pointer self, const Event& x) {
  auto& st = self->state;
  nlohmann::json line{{"seq", ++st.seq},
                      {"ts_ms", st.clock->now_ms()},
                      {"topic", messages::name_of(messages::topic_of(x))},
                      {"event", x}};
  *st.out << line.dump() << '\n';
}

audit_actor::behavior_type audit_behavior(audit_pointer self,
                                          std::shared_ptr<std::ostream> out) {
  auto& st = self->state;
  st.out = std::move(out);
  st.clock.emplace(self->system());
  return {
      [self](const messages::negotiation_event& x) { record(self, x); },
      [self](const messages::problem_event& x) { record(self, x); },
      [self](const messages::agent_event& x) { record(self, x); },
      [self](const messages::ballot_event& x) { record(self, x); },
      [self](const messages::auction_event& x) { record(self, x); },
      [self](const messages::channel_event& x) { record(self, x); },
      [](const messages::barrier&) {},
      [self](messages::done_atom) {
        self->state.out->flush();
        self->quit();
      },
  };
}

} // namespace

audit_actor spawn_audit_log(caf::actor_system& sys, const messages::event_sink& events,
                            std::shared_ptr<std::ostream> out) {
  auto audit = sys.spawn(audit_behavior, std::move(out));
  // Subscribed from here, so that every event published after this call is
  // recorded.
  events.subscribe(messages::topic_set::all(), audit);
  return audit;
}

} // namespace parley::actors::audit
