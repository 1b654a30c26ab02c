#pragma once

#include <memory>

#include "caf/fwd.hpp"

#include "actors/common/actor_pool.hpp"
#include "actors/common/consensus_shell.hpp"
#include "messages/consensus.hpp"
#include "messages/handles/auction.hpp"
#include "messages/handles/timer.hpp"

namespace parley::actors::auction {

/// Who an auction talks to: the bus receives auction.bid / auction.result and refusals;
/// the invited agents get an `auction_invite`.
using peers = consensus::peers;

/// The auction actors of one node (see actors/common/actor_pool.hpp).
class pool : public actor_pool<auction_actor> {
public:
  explicit pool(caf::actor_system& sys);
};

/// Spawns an auction actor of `home`, lazily; auctions open in one from
/// their node's pool (`open`) rather than from here.
///
/// It runs one task auction at a time (docs/protocols/ballots-and-auctions.md).
/// `open_auction` opens one: it invites the agents and arms the window with the node's
/// timer service. It takes `bid`s for that auction and resolves when every invited
/// agent has bid or when its window closes; then it publishes the result and goes back
/// to `home`. Refused bids are published as `problem_event`s whose `negotiation_id` is
/// the auction id: a bid for an auction it decided, however late, with E024 (it keeps
/// their ids), one for an auction it never ran with E026; a timer meant for an earlier
/// auction is dropped. An invalid spec is published as E027 and the actor goes back at
/// once.
auction_actor spawn_auction(caf::actor_system& sys,
                            std::weak_ptr<actor_pool<auction_actor>> home);

/// Opens an auction in an idle actor of `auctions`, its window armed with
/// `timers`, and returns the actor (where bids go).
auction_actor open(pool& auctions, messages::auction_spec spec, peers with,
                   timer_actor timers);

} // namespace parley::actors::auction
