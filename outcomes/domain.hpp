#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace parley::outcomes {

/// One issue under negotiation and its finite list of values (docs/outcomes.md).
struct issue {
  std::string name;
  /// How each value reads, e.g. "4" or "express".
  std::vector<std::string> labels;
  /// The number each value stands for; empty for an issue of labels only.
  std::vector<double> numbers;
};

/// The issues of a negotiation; an outcome takes one value of each.
struct domain {
  std::vector<issue> issues;
};

/// An outcome: one value index per issue, in the order of the domain's issues.
using outcome = std::vector<std::size_t>;

/// The most outcomes `enumerate_outcomes` lists unless told otherwise.
inline constexpr std::size_t max_outcomes = 1'000'000;

/// Returns an issue of labels only, e.g. colours.
issue label_issue(std::string name, std::vector<std::string> labels);

/// Returns a numeric issue with the values `from`, `from + step`, ... up to `to`,
/// included when a whole number of steps reaches it (within rounding). Throws
/// std::invalid_argument unless all three are finite, `step > 0`, `from <= to`
/// and there are at most `max_outcomes` values.
issue numeric_issue(std::string name, double from, double to, double step);

/// Returns an empty string when `d` has an issue, every issue has a value and
/// every numeric issue one number per label; otherwise what is wrong.
std::string check_domain(const domain& d);

/// Returns the number of outcomes of `d`, the product of its issues' value
/// counts, saturating at the largest std::size_t; 0 without issues.
std::size_t outcome_count(const domain& d);

/// Returns every outcome of `d` with the last issue's value changing fastest
/// (lexicographic order of the value indices). Throws std::invalid_argument
/// when `check_domain` fails or `d` has more than `limit` outcomes.
std::vector<outcome> enumerate_outcomes(const domain& d,
                                        std::size_t limit = max_outcomes);

/// Returns `x` as "name=label" pairs, e.g. "price=4, days=2". Throws
/// std::invalid_argument when `x` is not an outcome of `d`.
std::string describe_outcome(const domain& d, const outcome& x);

/// Throws std::invalid_argument unless `x` has one valid value index per issue
/// of `d`.
void check_outcome(const domain& d, const outcome& x);

} // namespace parley::outcomes
