#pragma once

#include <cstddef>
#include <optional>

#include "outcomes/frontier.hpp"
#include "outcomes/point.hpp"

namespace parley::outcomes {

/// The largest distance between two points of utility space, the unit square:
/// its diagonal, sqrt(2). The scale of every optimality.
inline constexpr double max_distance = 1.4142135623730951;

/// How close an agreement came to a set of points in utility space.
struct proximity {
  /// The Euclidean distance to the nearest point of the set.
  double distance = 0.0;
  /// 1 - distance / max_distance, within [0, 1].
  double optimality = 0.0;
};

/// The scores of an agreement, or of no agreement (docs/outcomes.md, "Scores").
struct agreement_score {
  /// Each party's utility; its reservation value without an agreement.
  point utilities;
  /// Each party's advantage (`advantages`); 0 without an agreement.
  point advantages;
  /// u1 + u2.
  double welfare = 0.0;
  /// (u1 - r1) * (u2 - r2).
  double nash_product = 0.0;
  /// To the Pareto frontier and to each bargaining solution (the nearest of
  /// its tied outcomes); empty when no outcome is rational.
  std::optional<proximity> pareto;
  std::optional<proximity> nash;
  std::optional<proximity> kalai_smorodinsky;
  std::optional<proximity> egalitarian;
  std::optional<proximity> max_welfare;
};

/// Scores an agreement with these utilities. Throws std::invalid_argument
/// when a utility is outside [0, 1].
agreement_score score_point(const bilateral_analysis& a, point utilities);

/// Scores an agreement on outcome `index` of `a`. Throws std::invalid_argument
/// when there is no such outcome.
agreement_score score_agreement(const bilateral_analysis& a, std::size_t index);

/// Scores no agreement: each party gets its reservation value.
agreement_score score_no_agreement(const bilateral_analysis& a);

} // namespace parley::outcomes
