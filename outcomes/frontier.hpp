#pragma once

#include <cstddef>
#include <vector>

#include "outcomes/point.hpp"

namespace parley::outcomes {

/// How far below the best value of a criterion a frontier outcome may be and
/// still tie for a bargaining solution.
inline constexpr double tie_tolerance = 1e-12;

/// Returns the indices of the outcomes whose utilities are rational for both
/// parties, ascending.
std::vector<std::size_t> rational_outcomes(const std::vector<point>& utilities,
                                           point reservation);

/// Returns the indices in `among` of the outcomes no other outcome in `among`
/// dominates, the first party's best first, equal utilities by index. Outcomes
/// with equal utilities are all kept.
std::vector<std::size_t> pareto_frontier(const std::vector<point>& utilities,
                                         std::vector<std::size_t> among);

/// Returns each party's best utility over `among`; `otherwise` when empty.
point best_utilities(const std::vector<point>& utilities,
                     const std::vector<std::size_t>& among, point otherwise);

/// Returns the minimum over outcomes of the distance between
/// (u1 / ideal1, u2 / ideal2) and (1, 1), ideal being each party's best utility
/// over all outcomes (a party whose ideal is 0 counts u instead of u / ideal).
/// Throws std::invalid_argument when there are no outcomes.
double opposition_level(const std::vector<point>& utilities);

/// The analysis of a bilateral negotiation (docs/outcomes.md).
struct bilateral_analysis {
  /// Each outcome's utilities, in the order given.
  std::vector<point> utilities;
  point reservation;
  /// Each party's best utility over all outcomes.
  point ideal;
  /// Each party's best utility over the rational outcomes; the reservation
  /// values when none is rational.
  point best_rational;
  /// The rational outcomes, ascending.
  std::vector<std::size_t> rational;
  /// The Pareto-optimal rational outcomes, in `pareto_frontier`'s order.
  std::vector<std::size_t> frontier;
  /// The bargaining solutions: every frontier outcome within `tie_tolerance`
  /// of the best value of the solution's criterion, in frontier order; empty
  /// when no outcome is rational.
  std::vector<std::size_t> nash;
  std::vector<std::size_t> kalai_smorodinsky;
  std::vector<std::size_t> egalitarian;
  std::vector<std::size_t> max_welfare;
  double opposition = 0.0;
};

/// Analyses the outcomes with `utilities` (one point per outcome) for parties
/// with `reservation` values. Throws std::invalid_argument when there are no
/// outcomes or a utility or reservation value is outside [0, 1].
bilateral_analysis analyse(std::vector<point> utilities, point reservation);

} // namespace parley::outcomes
