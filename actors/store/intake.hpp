#pragma once

#include "caf/fwd.hpp"

#include "messages/handles/store.hpp"

namespace parley::actors::store {

/// Where the store's negotiation events arrive: a bus subscriber that keeps
/// them, in the order heard, until the store takes them (`events`: every
/// event kept, and none kept after).
///
/// Why not the store itself: the store is a detached actor (its database
/// work never runs on the scheduler's threads), and a message to a detached
/// actor that waits for one costs its sender a mutex and a wake-up of that
/// thread. A negotiation publishes up to four events (one, its end, to a
/// store that settles: `store_options::settle`): W1 N=100k with a store that
/// dropped every event took 1.4 times as long as without a store, and 1.1
/// times with the same store on the scheduler (docs/benchmarks/store.md, "2026-11-27,
/// 18:00 UTC"). The intake runs on the scheduler: an event costs its sender
/// a mailbox push, the intake takes in many events each time it runs
/// (events come through the scheduler's shared entry, `deliver_event`), and
/// the store hears once per batch (`events`, sent to it when the first event
/// after a take arrives) and takes them all at once.
///
/// The intake_actor interface is in messages/handles/store.hpp. With
/// simulated time the intake is detached too (see intake.cpp).
intake_actor spawn_intake(caf::actor_system& sys, const store_actor& store);

} // namespace parley::actors::store
