#pragma once

#include "caf/fwd.hpp"

#include "actors/ballot/interface.hpp"
#include "actors/common/consensus_shell.hpp"
#include "messages/consensus.hpp"

namespace parley::actors::ballot {

/// Who a ballot talks to: the bus receives negotiation.propose / .vote / .result and
/// refusals; the invited voters get a `ballot_invite`.
using peers = consensus::peers;

/// Spawns a ballot (seed 004's proposal with voting): publishes the proposal,
/// invites the voters, takes `vote`s, and resolves early or when its window
/// closes (a generation-tagged `consensus_timer` to itself). Refused votes
/// are published as `problem_event`s whose `negotiation_id` is the ballot id.
/// It quits once resolved and either every voter voted or the window closed.
/// An invalid spec is published as E027 and the ballot quits at once.
ballot_actor spawn_ballot(caf::actor_system& sys, messages::ballot_spec spec, peers with);

} // namespace parley::actors::ballot
