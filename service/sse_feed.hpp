#pragma once

#include <memory>

#include "caf/fwd.hpp"

#include "messages/event_sink.hpp"
#include "messages/handles/bus.hpp"
#include "service/sse_hub.hpp"

namespace parley::service {

/// Spawns the event streams' feed: a bus subscriber that hands each event,
/// in the order the bus gives them, to `hub`: the channel topics from the
/// start, every other topic from the first global stream on
/// (sse_hub::on_first_global). It ends on an exit message (serve sends one
/// when it stops).
actors::subscriber_actor spawn_sse_feed(caf::actor_system& sys,
                                        const messages::event_sink& events,
                                        std::shared_ptr<sse_hub> hub);

} // namespace parley::service
