#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// A ballot (see actors/ballot/actor.hpp): votes and its window timer.
using ballot_actor = caf::typed_actor<caf::reacts_to<messages::vote>,
                                      caf::reacts_to<messages::consensus_timer>>;

} // namespace parley::actors
