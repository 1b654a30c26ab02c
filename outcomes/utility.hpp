#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "outcomes/domain.hpp"

namespace parley::outcomes {

/// Returns an empty string when a linear additive utility with these parts is
/// valid for `d`; otherwise what is wrong. Valid: `d` passes `check_domain`,
/// one finite weight >= 0 per issue with a positive sum, per issue one value in
/// [0, 1] per value of the issue, and a reservation value in [0, 1].
std::string check_linear_utility(const domain& d, const std::vector<double>& weights,
                                 const std::vector<std::vector<double>>& values,
                                 double reservation);

/// A linear additive utility function (docs/outcomes.md, "Utility"): the
/// weighted sum of one value per issue, with weights that sum to 1.
class linear_utility {
public:
  /// Throws std::invalid_argument with `check_linear_utility`'s message when
  /// the parts are invalid for `d`; scales the weights to sum to 1.
  linear_utility(const domain& d, std::vector<double> weights,
                 std::vector<std::vector<double>> values, double reservation);

  /// Returns the sum over issues i of weight_i * values_i[x_i], capped at 1
  /// against rounding. Throws std::invalid_argument when `x` does not fit the
  /// domain's shape.
  double operator()(const outcome& x) const;

  /// The utility of no agreement.
  double reservation() const { return reservation_; }

  /// The weights, scaled to sum to 1.
  const std::vector<double>& weights() const { return weights_; }

  /// Per issue, the value of each of its values.
  const std::vector<std::vector<double>>& values() const { return values_; }

  /// Returns whether `d` has as many issues and values per issue as the
  /// domain this utility was made for.
  bool fits(const domain& d) const;

private:
  std::vector<double> weights_;
  std::vector<std::vector<double>> values_;
  double reservation_;
};

/// Returns `count` values rising evenly from 0 to 1 ({1} for one value): for
/// an issue made by `numeric_issue`, linear in the number.
std::vector<double> rising_values(std::size_t count);

/// Returns `count` values falling evenly from 1 to 0 ({1} for one value).
std::vector<double> falling_values(std::size_t count);

} // namespace parley::outcomes
