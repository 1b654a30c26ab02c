#pragma once

#include <memory>

#include "caf/fwd.hpp"

#include "actors/common/actor_pool.hpp"
#include "actors/common/consensus_shell.hpp"
#include "messages/consensus.hpp"
#include "messages/handles/ballot.hpp"
#include "messages/handles/timer.hpp"

namespace parley::actors::ballot {

/// Who a ballot talks to: the bus receives negotiation.propose / .vote / .result and
/// refusals; the invited voters get a `ballot_invite`.
using peers = consensus::peers;

/// The ballot actors of one node (see actors/common/actor_pool.hpp).
class pool : public actor_pool<ballot_actor> {
public:
  explicit pool(caf::actor_system& sys);
};

/// Spawns a ballot actor of `home`, lazily; ballots open in one from their
/// node's pool (`open`) rather than from here.
///
/// It runs one ballot at a time (docs/protocols/ballots-and-auctions.md).
/// `open_ballot` opens one: it publishes the proposal, invites the voters and
/// arms the window with the node's timer service. It takes `vote`s for that
/// ballot and resolves early, or when its window closes. Refused votes are
/// published as `problem_event`s whose `negotiation_id` is the ballot id. Once
/// resolved and either every voter voted or the window closed, it goes back
/// to `home`. It keeps the ids of the ballots it decided: a vote for one of
/// them, however late, is refused with E024 (a vote for a ballot it never
/// ran with E025); a timer meant for an earlier ballot is dropped. An
/// invalid spec is published as E027 and the actor goes back at once.
ballot_actor spawn_ballot(caf::actor_system& sys,
                          std::weak_ptr<actor_pool<ballot_actor>> home);

/// Opens a ballot in an idle actor of `ballots`, its window armed with
/// `timers`, and returns the actor (where votes go).
ballot_actor open(pool& ballots, messages::ballot_spec spec, peers with,
                  timer_actor timers);

} // namespace parley::actors::ballot
