#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// A ballot actor (see actors/ballot/actor.hpp): the ballot to open, its
/// votes and its window timer.
using ballot_actor = caf::typed_actor<caf::reacts_to<messages::open_ballot>,
                                      caf::reacts_to<messages::vote>,
                                      caf::reacts_to<messages::timer_due>>;

} // namespace parley::actors
