#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// A task auction actor (see actors/auction/actor.hpp): the auction to
/// open, its bids and its window timer.
using auction_actor = caf::typed_actor<caf::reacts_to<messages::open_auction>,
                                       caf::reacts_to<messages::bid>,
                                       caf::reacts_to<messages::timer_due>>;

} // namespace parley::actors
