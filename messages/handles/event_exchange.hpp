#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"

namespace parley::actors {

/// A `parley serve --cluster` node's event exchange
/// (cluster/event_exchange.hpp, docs/cluster.md "The cluster's events"):
/// - `cluster_event`: an event of this node's own bus, as its streams show
///   it, to send to every other live member;
/// - `cluster_event_batch`: events of another node (through this node's
///   move relay), shown on this node's streams once each, answered with how
///   many were new;
/// - `peers, addresses`: the node addresses of the other live members now.
using event_exchange_actor = caf::typed_actor<
    caf::reacts_to<messages::cluster_event>,
    caf::replies_to<messages::cluster_event_batch>::with<std::uint64_t>,
    caf::reacts_to<messages::peers_atom, std::vector<std::string>>>;

} // namespace parley::actors
