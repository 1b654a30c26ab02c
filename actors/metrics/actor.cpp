#include "actors/metrics/actor.hpp"

#include <optional>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/metrics/recorder.hpp"
#include "messages/channel_event.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::metrics {

namespace {

struct metrics_state {
  static inline const char* name = "parley.metrics";
  std::optional<metrics::recorder> recorder;
};

using metrics_pointer = subscriber_actor::stateful_pointer<metrics_state>;

subscriber_actor::behavior_type metrics_behavior(metrics_pointer self,
                                                 std::shared_ptr<node_metrics> to) {
  self->state.recorder.emplace(std::move(to));
  return {
      [self](const messages::negotiation_event& x) { self->state.recorder->on(x); },
      [self](const messages::channel_event& x) { self->state.recorder->on(x); },
      [self](const messages::problem_event& x) {
        self->state.recorder->count(messages::topic_of(x));
      },
      [self](const messages::agent_event& x) {
        self->state.recorder->count(messages::topic_of(x));
      },
      [self](const messages::ballot_event& x) {
        self->state.recorder->count(messages::topic_of(x));
      },
      [self](const messages::auction_event& x) {
        self->state.recorder->count(messages::topic_of(x));
      },
      [](const messages::barrier&) {},
  };
}

} // namespace

subscriber_actor spawn_metrics(caf::actor_system& sys,
                               const messages::event_sink& events,
                               std::shared_ptr<node_metrics> to) {
  auto actor = sys.spawn(metrics_behavior, std::move(to));
  events.subscribe(recorded_topics(), actor);
  return actor;
}

} // namespace parley::actors::metrics
