#pragma once

#include <cstdint>

#include "caf/fwd.hpp"

#include "messages/agent_profile.hpp"

namespace parley::actors::agent {

/// Spawns an agent acting for one user (seed 001), lazily.
///
/// The agent answers offers with its brain (rule, script; the LLM brain comes
/// later through the same `brain` interface and `deferred_reply` messages).
/// Messages:
/// - `initiate_negotiation` -> `negotiation_record`: opens a negotiation in
///   the given room with the agent as initiator;
/// - the four agent messages from a negotiation: a proposal or counter is
///   answered by the brain, an accept or reject closes the agent's memory of
///   that negotiation;
/// - a terminal `negotiation_event` (expiry) closes it too;
/// - `deferred_reply`: a decision reached later (think time) is carried out;
/// - `ballot_invite` / `auction_invite` (seed 004): a rule agent votes / bids
///   from its profile (role, capabilities, load; see voter.hpp), a scripted
///   agent waits to be told;
/// - `cast_vote` / `place_bid`: the agent sends exactly that vote / bid.
///
/// `max_rounds` is the negotiations' round limit, so that the brain knows its
/// last chance; `bus` receives the agent's problems.
caf::actor spawn_agent(caf::actor_system& sys, messages::agent_spec spec,
                       std::int32_t max_rounds, caf::actor bus);

} // namespace parley::actors::agent
