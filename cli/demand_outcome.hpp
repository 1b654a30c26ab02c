#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/demand_summary.hpp"
#include "cli/scenario.hpp"
#include "messages/coordinator_messages.hpp"

namespace parley::cli {

/// Who confirmed a channel's final proposal: a forced one's confirmed
/// participants, otherwise the agents of its confirmed assignments; none
/// without a proposal.
std::vector<std::string> confirmed_participants(const messages::channel_outcome& x);

/// Adds how a demand ended (as `view` says) and its channels to the
/// summary's counts by outcome: demands by status (`demands` itself counts
/// submissions and is left alone), channels and channels by status.
void count_demand(demand_summary& summary, const messages::demand_view& view);

/// Checks what `expect` says against how the demand ended: `view` (the
/// coordinator's) and `rounds`, the round its top channel ended in (by its
/// terminal event; absent when it did not end). Returns one line per
/// mismatch, naming the demand, what was expected and what happened; empty
/// when it all holds.
std::vector<std::string> check_expectation(const demand_expectation& expect,
                                           const messages::demand_view& view,
                                           std::int32_t rounds);

/// The line for a demand that was expected to end but the coordinator
/// refused it (`why`: its error).
std::string refused_expectation(const std::string& demand, const std::string& why);

} // namespace parley::cli
