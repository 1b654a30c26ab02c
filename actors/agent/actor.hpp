#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "caf/fwd.hpp"

#include "messages/agent_profile.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/agent.hpp"

namespace parley::actors::agent {

class brain;

/// Who an agent talks to besides the negotiations it is in.
struct peers {
  /// Receives the agent's problems and passes its barriers back.
  messages::event_sink events;
  /// The agent numbers its messages `<agent id>:<n>` from n = first_message
  /// + 1 (`parley serve` starts past every number an earlier process of the
  /// same store used, so a resumed negotiation never sees an id twice).
  std::uint64_t first_message = 0;
};

/// Spawns an agent acting for one user (docs/protocols/bilateral.md, "Agents") with a
/// rule or script brain, lazily (nothing runs until its first message).
///
/// - `initiate_negotiation`: asks the room to open a negotiation with the
///   agent as initiator; the room's `negotiation_opened`, or its refusal (a
///   problem_event), ends the request;
/// - a proposal or counter from a negotiation, with its `answer_terms`: the
///   brain answers it from the offer and the terms (now, or after the
///   decision's think time through a `deferred_reply` to itself, dropped if
///   the offer's deadline passed meanwhile). The agent keeps nothing per
///   negotiation, so the other party's accept or reject needs no handling
///   and its negotiations' expiry does not reach it;
/// - `ballot_invite` / `auction_invite` (docs/protocols/ballots-and-auctions.md): a
///   rule agent votes / bids from its profile (see voter.hpp), a scripted agent waits
///   to be told; `cast_vote` / `place_bid`: the agent sends exactly that vote / bid;
/// - transcript lines, triggers and tools concern LLM agents only: ignored;
///   a `barrier` goes straight on to the bus.
///
/// `max_rounds` is the negotiations' round limit, so that the brain knows its
/// last chance.
agent_actor spawn_agent(caf::actor_system& sys, messages::agent_spec spec,
                        std::int32_t max_rounds, peers with);

/// Spawns an agent as above whose brain is `mind`: a strategy of the
/// application's own (actors/agent/brain.hpp; examples/custom_brain/ has
/// one) instead of one built from a spec. The agent owns the brain and asks
/// it about one offer at a time, never from two threads at once; it votes
/// and bids by itself only if `mind->voter()` names a profile. Throws
/// std::invalid_argument when `mind` is null.
agent_actor spawn_agent(caf::actor_system& sys, std::string id,
                        std::unique_ptr<brain> mind, std::int32_t max_rounds,
                        peers with);

} // namespace parley::actors::agent
