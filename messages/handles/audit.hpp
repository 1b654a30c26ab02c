#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/handles/bus.hpp"

namespace parley::actors {

/// The audit log (see actors/audit/actor.hpp): a bus subscriber that also
/// takes `done`, after which it flushes and quits.
using audit_actor = subscriber_actor::extend<caf::reacts_to<messages::done_atom>>;

} // namespace parley::actors
