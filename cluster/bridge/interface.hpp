#pragma once

#include <cstdint>
#include <vector>

#include "caf/actor.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/bridge.hpp"
#include "messages/fwd.hpp"

namespace parley::cluster::bridge {

// A bridge has a side in each of two processes (a caller and a `parley
// node`); everything one process sends the other's actors crosses between
// them, in order, batched, addressed by slot (see messages/bridge.hpp).
// Both sides accept:
// - `routed`: from a forwarder of their process, to go out in the next batch;
// - `routed_batch`: from the other side, to deliver here;
// - `sync_atom` -> true once everything sent through it before has arrived;
// - `flush_atom`: sends the batch collected so far.

/// The node's side (node_side.hpp). Also:
/// - `(agents' first slot, room specs)` -> (rooms' first slot, rooms built):
///   builds the caller's rooms here; their agents are the caller's slots
///   from the first one on, in order of room and member.
using node_bridge_actor = caf::typed_actor<
    caf::reacts_to<messages::routed>, caf::reacts_to<messages::routed_batch>,
    caf::replies_to<std::uint64_t, std::vector<messages::room_spec>>::with<std::uint64_t,
                                                                          std::uint64_t>,
    caf::replies_to<messages::sync_atom>::with<bool>, caf::reacts_to<messages::flush_atom>>;

/// The caller's side (caller.hpp). Also:
/// - the four agent messages: an agent's answer to an offer the bridge
///   delivered, for the negotiation it names;
/// - `room specs` -> (rooms' first slot at the node, rooms built): places
///   rooms on the node, keeping their agents' handles here;
/// - `bridge_atom, node side`: the node's side, made for this one.
using caller_bridge_actor = caf::typed_actor<
    caf::reacts_to<messages::routed>, caf::reacts_to<messages::routed_batch>,
    caf::reacts_to<messages::agent_proposal>, caf::reacts_to<messages::agent_counter>,
    caf::reacts_to<messages::agent_accept>, caf::reacts_to<messages::agent_reject>,
    caf::replies_to<std::vector<messages::room_spec>>::with<std::uint64_t, std::uint64_t>,
    caf::replies_to<messages::sync_atom>::with<bool>, caf::reacts_to<messages::flush_atom>,
    caf::reacts_to<messages::bridge_atom, caf::actor>>;

} // namespace parley::cluster::bridge
