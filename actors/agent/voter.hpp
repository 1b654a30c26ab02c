#pragma once

#include <optional>
#include <string>

#include "messages/agent_profile.hpp"
#include "messages/consensus.hpp"

namespace parley::actors::agent {

/// How a rule agent votes, from its profile (pure, deterministic).
///
/// The agent's fitness for a ballot is its capability for the ballot's task
/// (0.5 when the ballot names no task or the agent lists no such capability).
/// - A ballot with an "approve" option and a "reject" one: approve when fit
///   (capability >= 0.5) and not overloaded (load < 0.8); otherwise reject —
///   except that in a veto ballot a guardian or strategist whose capability
///   is below 0.2 vetoes.
/// - Other ballots: the option named after the agent's strongest capability
///   among the options; failing that, the option naming the agent itself;
///   failing that, the first option.
std::string decide_vote(const std::string& agent_id,
                        const messages::agent_profile& profile,
                        const messages::ballot_spec& ballot);

/// How a rule agent bids, from its profile: capability for the task (no bid
/// without one, or with capability 0), its load, and an estimated duration of
/// base × (1 + load) / capability, in whole milliseconds (at least 1).
std::optional<messages::bid> decide_bid(const std::string& agent_id,
                                        const messages::agent_profile& profile,
                                        const messages::auction_spec& auction);

} // namespace parley::actors::agent
