#pragma once

#include <iosfwd>
#include <vector>

#include "tournament/results.hpp"

namespace parley::tournament {

/// Returns each strategy's scores over the negotiations of `r`, in the order
/// of `r.strategies` (docs/tournament.md, "scores.csv").
std::vector<strategy_score> compute_scores(const tournament_results& r);

/// Writes one row per negotiation (docs/tournament.md, "negotiations.csv").
void write_negotiations_csv(const tournament_results& r, std::ostream& out);

/// Writes one row per strategy, from `r.scores`.
void write_scores_csv(const tournament_results& r, std::ostream& out);

/// Writes one row per scenario.
void write_scenarios_csv(const tournament_results& r, std::ostream& out);

} // namespace parley::tournament
