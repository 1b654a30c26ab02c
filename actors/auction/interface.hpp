#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// A task auction (see actors/auction/actor.hpp): bids and its window timer.
using auction_actor = caf::typed_actor<caf::reacts_to<messages::bid>,
                                       caf::reacts_to<messages::consensus_timer>>;

} // namespace parley::actors
