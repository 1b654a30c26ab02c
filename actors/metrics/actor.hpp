#pragma once

#include <memory>

#include "caf/fwd.hpp"

#include "actors/metrics/node_metrics.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/bus.hpp"

namespace parley::actors::metrics {

/// Spawns the metrics actor: it subscribes to `recorded_topics()` of
/// `events` and turns each event into updates of `to` (recorder.hpp).
///
/// Why an actor that writes atomics, rather than a collector that asks an
/// actor at scrape time: the producers (negotiations, channels) only send
/// the events they already build for the store, and touch no metric
/// themselves; the actor is the only writer of its instruments, each update
/// one relaxed atomic add, no lock; a scrape reads the atomics and never
/// waits for an actor, so it is bounded in time however busy the runtime
/// is, and a scrape cannot slow the actor down either. What a scrape may
/// miss is the events still in the actor's mailbox.
///
/// Stop it with an exit message (the world does, see runtime/world.hpp).
subscriber_actor spawn_metrics(caf::actor_system& sys,
                               const messages::event_sink& events,
                               std::shared_ptr<node_metrics> to);

} // namespace parley::actors::metrics
