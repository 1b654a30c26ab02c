#pragma once

#include "caf/fwd.hpp"

#include "actors/auction/interface.hpp"
#include "actors/common/consensus_shell.hpp"
#include "messages/consensus.hpp"

namespace parley::actors::auction {

/// Who an auction talks to: the bus receives auction.bid / auction.result and refusals;
/// the invited agents get an `auction_invite`.
using peers = consensus::peers;

/// Spawns a task auction (seed 004): invites the agents, takes `bid`s, and
/// resolves when every invited agent has bid or when its window closes (a
/// generation-tagged `consensus_timer`); then it publishes the result and
/// quits. Refused bids are published as `problem_event`s whose
/// `negotiation_id` is the auction id. An invalid spec is published as E027
/// and the auction quits at once.
auction_actor spawn_auction(caf::actor_system& sys, messages::auction_spec spec,
                         peers with);

} // namespace parley::actors::auction
