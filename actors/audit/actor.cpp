#include "actors/audit/actor.hpp"

#include <optional>
#include <string>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"

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

using audit_actor = caf::stateful_actor<audit_state>;

template <class Event> void record(audit_actor* self, const Event& x) {
  auto& st = self->state;
  nlohmann::json line{{"seq", ++st.seq},
                      {"ts_ms", st.clock->now_ms()},
                      {"topic", messages::topic_of(x)},
                      {"event", x}};
  *st.out << line.dump() << '\n';
}

caf::behavior audit_behavior(audit_actor* self, std::shared_ptr<std::ostream> out) {
  auto& st = self->state;
  st.out = std::move(out);
  st.clock.emplace(self->system());
  return {
      [self](const messages::negotiation_event& x) { record(self, x); },
      [self](const messages::problem_event& x) { record(self, x); },
      [self](const messages::ballot_event& x) { record(self, x); },
      [self](const messages::auction_event& x) { record(self, x); },
      [self](messages::done_atom) {
        self->state.out->flush();
        self->quit();
      },
  };
}

} // namespace

caf::actor spawn_audit_log(caf::actor_system& sys, caf::actor bus,
                           std::shared_ptr<std::ostream> out) {
  auto audit = sys.spawn(audit_behavior, std::move(out));
  // Subscribed from here, so that the subscription is in the bus's mailbox
  // before anything the caller starts next can publish.
  caf::anon_send(bus, messages::subscribe_atom::value, std::string{"*"}, audit);
  return audit;
}

} // namespace parley::actors::audit
