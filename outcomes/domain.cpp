#include "outcomes/domain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "outcomes/numbers.hpp"

namespace parley::outcomes {

namespace {

/// Returns the number of values `numeric_issue` makes, or throws.
std::size_t numeric_value_count(double from, double to, double step) {
  if (!std::isfinite(from) || !std::isfinite(to) || !std::isfinite(step))
    throw std::invalid_argument("numeric issue: from, to and step must be finite");
  if (step <= 0.0)
    throw std::invalid_argument("numeric issue: step must be > 0, got " +
                                format_number(step));
  if (from > to)
    throw std::invalid_argument("numeric issue: from (" + format_number(from) +
                                ") must not exceed to (" + format_number(to) + ")");
  auto steps = std::floor((to - from) / step + 1e-9);
  if (steps + 1.0 > static_cast<double>(max_outcomes))
    throw std::invalid_argument("numeric issue: more than " +
                                std::to_string(max_outcomes) + " values");
  return static_cast<std::size_t>(steps) + 1;
}

/// Returns `d`'s outcome count described for an error message.
std::string count_text(const domain& d) {
  auto n = outcome_count(d);
  if (n == std::numeric_limits<std::size_t>::max())
    return "more than " + std::to_string(n);
  return std::to_string(n);
}

/// Moves `x` to the next outcome of `d` in lexicographic order; returns false
/// after the last one.
bool advance(const domain& d, outcome& x) {
  for (auto i = x.size(); i-- > 0;) {
    if (++x[i] < d.issues[i].labels.size())
      return true;
    x[i] = 0;
  }
  return false;
}

} // namespace

issue label_issue(std::string name, std::vector<std::string> labels) {
  return issue{std::move(name), std::move(labels), {}};
}

issue numeric_issue(std::string name, double from, double to, double step) {
  auto count = numeric_value_count(from, to, step);
  issue result{std::move(name), {}, {}};
  for (std::size_t k = 0; k < count; ++k) {
    auto value = std::min(from + static_cast<double>(k) * step, to);
    result.numbers.push_back(value);
    result.labels.push_back(format_number(value));
  }
  return result;
}

std::string check_domain(const domain& d) {
  if (d.issues.empty())
    return "the domain has no issues";
  for (const auto& x : d.issues) {
    if (x.labels.empty())
      return "issue \"" + x.name + "\" has no values";
    if (!x.numbers.empty() && x.numbers.size() != x.labels.size())
      return "issue \"" + x.name + "\" has " + std::to_string(x.labels.size()) +
             " labels but " + std::to_string(x.numbers.size()) + " numbers";
  }
  return {};
}

std::size_t outcome_count(const domain& d) {
  if (d.issues.empty())
    return 0;
  std::size_t n = 1;
  for (const auto& x : d.issues)
    if (__builtin_mul_overflow(n, x.labels.size(), &n))
      return std::numeric_limits<std::size_t>::max();
  return n;
}

std::vector<outcome> enumerate_outcomes(const domain& d, std::size_t limit) {
  if (auto error = check_domain(d); !error.empty())
    throw std::invalid_argument(error);
  if (outcome_count(d) > limit)
    throw std::invalid_argument("the domain has " + count_text(d) +
                                " outcomes, more than the limit of " +
                                std::to_string(limit));
  std::vector<outcome> result;
  result.reserve(outcome_count(d));
  outcome x(d.issues.size(), 0);
  do
    result.push_back(x);
  while (advance(d, x));
  return result;
}

void check_outcome(const domain& d, const outcome& x) {
  if (x.size() != d.issues.size())
    throw std::invalid_argument("an outcome needs " + std::to_string(d.issues.size()) +
                                " value indices, one per issue, got " +
                                std::to_string(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] >= d.issues[i].labels.size())
      throw std::invalid_argument("value index " + std::to_string(x[i]) +
                                  " is out of range for issue \"" + d.issues[i].name +
                                  "\"");
}

std::string describe_outcome(const domain& d, const outcome& x) {
  check_outcome(d, x);
  std::string result;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i > 0)
      result += ", ";
    result += d.issues[i].name + "=" + d.issues[i].labels[x[i]];
  }
  return result;
}

} // namespace parley::outcomes
