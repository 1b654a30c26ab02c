#include "actors/bus/actor.hpp"

#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/forward.hpp"
#include "messages/channel_event.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::bus {

namespace {

struct bus_state {
  static inline const char* name = "parley.bus";
  /// The subscribers, shared with the producers on this node.
  std::shared_ptr<messages::interest> subscribers;
};

using bus_pointer = bus_actor::stateful_pointer<bus_state>;

/// Passes the message being handled on to every subscriber of `t`; the
/// message is reference-counted, so subscribers share one copy.
void fan_out(bus_pointer self, messages::topic t) {
  caf::message content;
  auto subscribers = self->state.subscribers->subscribers();
  for (const auto& sub : *subscribers) {
    if (!sub.topics.contains(t))
      continue;
    if (content.empty())
      content = self->current_mailbox_element()->move_content_to_message();
    forward_message(self, sub.subscriber, content);
  }
}

bus_actor::behavior_type bus_behavior(bus_pointer self,
                                      std::shared_ptr<messages::interest> subscribers) {
  self->state.subscribers = std::move(subscribers);
  // A subscriber that cannot handle an event answers it with an error (CAF's
  // default for an unexpected message); by default that error would stop the
  // bus and every other subscriber would hear nothing more.
  self->set_error_handler([](caf::error&) {});
  self->set_down_handler([self](const caf::down_msg& down) {
    self->state.subscribers->remove(down.source);
  });
  return {
      // event_sink::subscribe added the subscriber already: watch it.
      [self](messages::subscribe_atom, messages::topic_set,
             subscriber_actor& subscriber) { self->monitor(subscriber); },
      [self](const messages::negotiation_event& x) { fan_out(self, topic_of(x)); },
      [self](const messages::problem_event& x) { fan_out(self, topic_of(x)); },
      [self](const messages::agent_event& x) { fan_out(self, topic_of(x)); },
      [self](const messages::ballot_event& x) { fan_out(self, topic_of(x)); },
      [self](const messages::auction_event& x) { fan_out(self, topic_of(x)); },
      [self](const messages::channel_event& x) { fan_out(self, topic_of(x)); },
      [self](const messages::barrier& x) {
        // Moving the content out empties `x`: take the destination first.
        auto origin = x.origin;
        forward_message(self, origin,
                        self->current_mailbox_element()->move_content_to_message());
      },
  };
}

} // namespace

messages::event_sink spawn_bus(caf::actor_system& sys) {
  auto subscribers = std::make_shared<messages::interest>();
  auto bus = sys.spawn(bus_behavior, subscribers);
  return messages::event_sink{std::move(bus), std::move(subscribers), true};
}

} // namespace parley::actors::bus
