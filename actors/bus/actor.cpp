#include "actors/bus/actor.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/stateful_actor.hpp"

#include "messages/type_ids.hpp"

namespace parley::actors::bus {

namespace {

struct subscription {
  std::string pattern;
  caf::actor subscriber;
};

struct bus_state {
  static inline const char* name = "parley.bus";
  std::vector<subscription> subscriptions;
};

using bus_actor = caf::stateful_actor<bus_state>;

/// Passes the message being handled on to every matching subscriber; the
/// message is reference-counted, so subscribers share one copy.
void forward(bus_actor* self, const std::string& topic) {
  caf::message content;
  for (auto& sub : self->state.subscriptions) {
    if (!topic_matches(sub.pattern, topic))
      continue;
    if (content.empty())
      content = self->current_mailbox_element()->move_content_to_message();
    self->send(sub.subscriber, content);
  }
}

caf::behavior bus_behavior(bus_actor* self) {
  self->set_down_handler([self](const caf::down_msg& down) {
    auto& subs = self->state.subscriptions;
    subs.erase(std::remove_if(subs.begin(), subs.end(),
                              [&](const subscription& x) {
                                return x.subscriber.address() == down.source;
                              }),
               subs.end());
  });
  return {
      [self](messages::subscribe_atom, std::string& pattern, caf::actor& subscriber) {
        self->monitor(subscriber);
        self->state.subscriptions.push_back(
            {std::move(pattern), std::move(subscriber)});
      },
      [self](const messages::negotiation_event& x) { forward(self, topic_of(x)); },
      [self](const messages::problem_event& x) { forward(self, topic_of(x)); },
      [self](const messages::agent_event& x) { forward(self, topic_of(x)); },
      [self](const messages::ballot_event& x) { forward(self, topic_of(x)); },
      [self](const messages::auction_event& x) { forward(self, topic_of(x)); },
      [self](const messages::barrier& x) {
        // Moving the content out empties `x`: take the destination first.
        auto origin = x.origin;
        self->send(origin, self->current_mailbox_element()->move_content_to_message());
      },
  };
}

/// Class-based, because CAF 0.17 dereferences a null pointer when spawning a
/// function-based actor without arguments.
class bus_impl : public bus_actor {
public:
  using bus_actor::bus_actor;

  caf::behavior make_behavior() override { return bus_behavior(this); }
};

} // namespace

bool topic_matches(const std::string& pattern, const std::string& topic) {
  if (pattern == "*" || pattern == topic)
    return true;
  if (!pattern.empty() && pattern.back() == '*')
    return topic.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  return false;
}

caf::actor spawn_bus(caf::actor_system& sys) {
  return sys.spawn<bus_impl>();
}

} // namespace parley::actors::bus
