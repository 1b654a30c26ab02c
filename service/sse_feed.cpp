#include "service/sse_feed.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "messages/channel_event.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/type_ids.hpp"

namespace parley::service {

namespace {

struct feed_state {
  static inline const char* name = "parley.sse.feed";
  std::shared_ptr<sse_hub> hub;
};

using feed_pointer = actors::subscriber_actor::stateful_pointer<feed_state>;

actors::subscriber_actor::behavior_type feed(feed_pointer self,
                                             std::shared_ptr<sse_hub> hub) {
  self->state.hub = std::move(hub);
  auto& h = *self->state.hub;
  return {
      [&h](const messages::negotiation_event& x) { h.publish(x); },
      [&h](const messages::problem_event& x) { h.publish(x); },
      [&h](const messages::agent_event& x) { h.publish(x); },
      [&h](const messages::ballot_event& x) { h.publish(x); },
      [&h](const messages::auction_event& x) { h.publish(x); },
      [&h](const messages::channel_event& x) { h.publish(x); },
      // A barrier goes to its origin only; none comes here.
      [](const messages::barrier&) {},
  };
}

} // namespace

actors::subscriber_actor spawn_sse_feed(caf::actor_system& sys,
                                        const messages::event_sink& events,
                                        std::shared_ptr<sse_hub> hub) {
  auto x = sys.spawn(feed, hub);
  events.subscribe(messages::channel_topics, x);
  // Every topic but the channels' (a second subscription of the feed, for
  // the topics the first one lacks).
  const auto rest = messages::topic_set::from_bits(messages::topic_set::all().bits() &
                                                   ~messages::channel_topics.bits());
  // Weak: the hub is the feed's state, and a strong handle would tie them.
  auto weak = caf::actor_cast<caf::weak_actor_ptr>(x);
  hub->on_first_global([events, weak, rest] {
    if (auto strong = weak.lock())
      events.subscribe(rest, caf::actor_cast<actors::subscriber_actor>(strong));
  });
  return x;
}

} // namespace parley::service
