#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"

namespace parley::actors {

/// What every subscriber of the bus accepts: each kind of event (the
/// channel events on the "towow.*" topics among them), and the barrier the
/// bus returns to its origin.
using subscriber_actor = caf::typed_actor<
    caf::reacts_to<messages::negotiation_event>,
    caf::reacts_to<messages::problem_event>, caf::reacts_to<messages::agent_event>,
    caf::reacts_to<messages::ballot_event>, caf::reacts_to<messages::auction_event>,
    caf::reacts_to<messages::channel_event>, caf::reacts_to<messages::barrier>>;

/// The event bus (see actors/bus/actor.hpp): producers publish the events a
/// subscriber accepts; `subscribe` adds a subscriber for a set of topics.
using bus_actor = caf::typed_actor<
    caf::reacts_to<messages::subscribe_atom, messages::topic_set, subscriber_actor>,
    caf::reacts_to<messages::negotiation_event>,
    caf::reacts_to<messages::problem_event>, caf::reacts_to<messages::agent_event>,
    caf::reacts_to<messages::ballot_event>, caf::reacts_to<messages::auction_event>,
    caf::reacts_to<messages::channel_event>, caf::reacts_to<messages::barrier>>;

} // namespace parley::actors
