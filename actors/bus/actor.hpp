#pragma once

#include <string>

#include "caf/fwd.hpp"

namespace parley::actors::bus {

/// Spawns the event bus: producers send it `negotiation_event`s,
/// `problem_event`s, `ballot_event`s (topics negotiation.propose / .vote /
/// .result) and `auction_event`s (auction.bid / auction.result); it passes each one on,
/// unchanged and uncopied, to every subscriber whose pattern matches the event's topic.
///
/// Subscribe with `(subscribe_atom, pattern, subscriber)`. A pattern is a
/// topic ("negotiation.agreed", "error"), a prefix ending in `*`
/// ("negotiation.*"), or "*" for everything. A subscriber that terminates is
/// dropped. Events from one producer reach a subscriber in the order sent.
/// A `barrier` goes back to its origin only, behind the events before it.
caf::actor spawn_bus(caf::actor_system& sys);

/// Returns whether `topic` matches `pattern` (see spawn_bus).
bool topic_matches(const std::string& pattern, const std::string& topic);

} // namespace parley::actors::bus
