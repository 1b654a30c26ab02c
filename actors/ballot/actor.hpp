#pragma once

#include <map>
#include <string>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "messages/consensus.hpp"

namespace parley::actors::ballot {

/// Who a ballot talks to. Any handle may be remote or unset.
struct peers {
  /// Receives negotiation.propose / .vote / .result and refusals.
  caf::actor bus;
  /// Also receives the result event (the ballot's creator).
  caf::actor reporter;
  /// Voters to send a `ballot_invite` (one shared message) when it opens.
  std::map<std::string, caf::actor> invite;
};

/// Spawns a ballot (seed 004's proposal with voting): publishes the proposal,
/// invites the voters, takes `vote`s, and resolves early or when its window
/// closes (a generation-tagged `consensus_timer` to itself). Refused votes
/// are published as `problem_event`s whose `negotiation_id` is the ballot id.
/// It quits once resolved and either every voter voted or the window closed.
/// An invalid spec is published as E027 and the ballot quits at once.
/// Also passes a `barrier` on to the bus.
caf::actor spawn_ballot(caf::actor_system& sys, messages::ballot_spec spec, peers with);

} // namespace parley::actors::ballot
