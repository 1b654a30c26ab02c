#pragma once

// How producers publish an event: on the bus's node straight to each
// subscriber of its topic (one hop, no bus actor to queue behind, each
// subscriber scheduled through the shared entry: `deliver_event`); elsewhere
// to the bus (or its stand-in), which passes it on.

#include <type_traits>
#include <utility>

#include "caf/message.hpp"

#include "actors/common/forward.hpp"
#include "messages/event_sink.hpp"

namespace parley::actors {

/// Publishes `event` (of topic `t`): one message shared by every receiver.
template <class Self>
void publish(Self* self, const messages::event_sink& sink, messages::topic t,
             caf::message event) {
  if (!sink.local()) {
    forward_anonymous(self, sink.bus(), std::move(event));
    return;
  }
  auto subscribers = sink.subscribers();
  for (const auto& x : *subscribers)
    if (x.topics.contains(t))
      deliver_event(x.subscriber, event);
}

/// Publishes an event value of topic `t`.
template <class Self, class Event,
          class = std::enable_if_t<!std::is_same_v<std::decay_t<Event>, caf::message>>>
void publish(Self* self, const messages::event_sink& sink, messages::topic t,
             Event&& x) {
  detail::check_accepts<subscriber_actor, Event>();
  publish(self, sink, t, caf::make_message(std::forward<Event>(x)));
}

} // namespace parley::actors
