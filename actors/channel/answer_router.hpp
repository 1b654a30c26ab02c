#pragma once

#include <chrono>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "messages/handles/channel.hpp"
#include "messages/handles/store.hpp"

namespace parley::actors {

/// Where an external channel member's answer goes when no channel of this
/// node asked that member anything (or the agent has no member here): the
/// channel ended, never asked it, or runs on another node of the cluster
/// (docs/cluster.md, "Any node answers"). Answers as the member does (true
/// once the channel took it, false for a replayed message id: E011):
///
/// - a cluster's node forwards it to the live node that runs its channel
///   (the store's `owner, channel, id`), over the move relay of that node,
///   which hands it to its member of the agent; that node's answer comes
///   back (committed there), or E030 when it cannot be reached. Sent again
///   through a new connection when one is lost, up to three sendings (an
///   answer is idempotent by its message id), as forwarded moves are;
/// - otherwise it is looked up in the channel's stored events: false when
///   they hold it (a replay, also of a channel that ended before a
///   restart); in a cluster, E030 while the channel is open and awaits this
///   agent's answer but runs on no live node (its node died and no survivor
///   took it over yet, or this node took it over and resumes it now); E007
///   else.
using answer_router_actor = answer_taker_actor;

namespace channel {

/// What an answer router reads and how it reaches the other nodes.
struct answer_router_options {
  /// Where channels' owners and events are read; none (a world without a
  /// store): every answer is refused E007.
  store_actor store;
  /// Whether this node is a cluster's (`serve --cluster`).
  bool clustered = false;
  /// With `clustered`: the middleman (CAF's, or its OpenSSL module's)
  /// through which the other nodes' relays are reached; none: nothing is
  /// forwarded (E030 while the channel's node is another).
  caf::actor connector;
  /// Bounds every request to the store and to another node.
  std::chrono::milliseconds timeout{5000};
};

/// Spawns a node's answer router.
answer_router_actor spawn_answer_router(caf::actor_system& sys,
                                        answer_router_options options);

} // namespace channel

} // namespace parley::actors
