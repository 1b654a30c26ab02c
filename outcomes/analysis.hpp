#pragma once

// Outcome analysis of a bilateral negotiation (docs/outcomes.md): the domain,
// linear additive utilities, the Pareto frontier, the bargaining solutions and
// the scores of an agreement. The standard library only.

#include <cstddef>
#include <vector>

#include "outcomes/domain.hpp"
#include "outcomes/frontier.hpp"
#include "outcomes/point.hpp"
#include "outcomes/scores.hpp"
#include "outcomes/utility.hpp"

namespace parley::outcomes {

/// Returns each outcome's utilities for the two parties.
std::vector<point> utility_points(const std::vector<outcome>& outcomes,
                                  const linear_utility& first,
                                  const linear_utility& second);

/// Analyses every outcome of `d` (the indices in the result refer to
/// `enumerate_outcomes(d, limit)`). Throws std::invalid_argument when `d` is
/// invalid or too large, or a utility was made for a differently shaped domain.
bilateral_analysis analyse(const domain& d, const linear_utility& first,
                           const linear_utility& second,
                           std::size_t limit = max_outcomes);

} // namespace parley::outcomes
