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

/// Which subscribers an event goes to (see `subscription::settle_ms`).
enum class audience {
  everyone,
  /// Those that hear every event as published.
  at_once,
  /// Those that settle (only on the bus's node).
  settling,
};

/// Whether subscriber `x` is one of `to`.
inline bool reaches(audience to, const messages::subscription& x) {
  switch (to) {
  case audience::at_once:
    return x.settle_ms == 0;
  case audience::settling:
    return x.settle_ms > 0;
  case audience::everyone:
    break;
  }
  return true;
}

/// Publishes `event` (of topic `t`) to `to`: one message shared by every
/// receiver. Not on the bus's node, the bus passes it on to everyone.
template <class Self>
void publish(Self* self, const messages::event_sink& sink, messages::topic t,
             caf::message event, audience to = audience::everyone) {
  if (!sink.local()) {
    if (to != audience::settling)
      forward_anonymous(self, sink.bus(), std::move(event));
    return;
  }
  auto subscribers = sink.subscribers();
  for (const auto& x : *subscribers)
    if (x.topics.contains(t) && reaches(to, x))
      deliver_event(x.subscriber, event);
}

/// Publishes an event value of topic `t` to `to`.
template <class Self, class Event,
          class = std::enable_if_t<!std::is_same_v<std::decay_t<Event>, caf::message>>>
void publish(Self* self, const messages::event_sink& sink, messages::topic t, Event&& x,
             audience to = audience::everyone) {
  detail::check_accepts<subscriber_actor, Event>();
  publish(self, sink, t, caf::make_message(std::forward<Event>(x)), to);
}

} // namespace parley::actors
