#pragma once

#include "caf/fwd.hpp"

#include "messages/event_sink.hpp"

namespace parley::actors::bus {

/// Spawns the event bus and returns where producers publish to it.
///
/// Producers publish `negotiation_event`s, `problem_event`s, `agent_event`s,
/// `ballot_event`s (topics negotiation.propose / .vote / .result), `auction_event`s
/// (auction.bid / auction.result) and `channel_event`s ("towow.*", one topic per kind:
/// docs/protocols/channels.md, "Events") with `actors::publish`
/// (actors/common/publish.hpp): each one goes unchanged and uncopied to every
/// subscriber of its topic, straight from a producer on this node, through the bus from
/// anywhere else (a node's rooms, over the bridge). A producer first asks the sink
/// whether a topic has subscribers and builds nothing when it has none.
///
/// Subscribe with `event_sink::subscribe(topics, subscriber)`
/// (`topic_set::matching` turns "negotiation.*"-style patterns into topics).
/// A subscriber that terminates is dropped; one that fails an event does not
/// stop the bus. Events from one producer reach a subscriber in the order
/// sent. A `barrier` goes back to its origin only, behind the events before
/// it.
messages::event_sink spawn_bus(caf::actor_system& sys);

} // namespace parley::actors::bus
