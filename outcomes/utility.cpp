#include "outcomes/utility.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "outcomes/numbers.hpp"

namespace parley::outcomes {

namespace {

std::string check_weights(const domain& d, const std::vector<double>& weights) {
  if (weights.size() != d.issues.size())
    return "expected " + std::to_string(d.issues.size()) +
           " weights, one per issue, got " + std::to_string(weights.size());
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (!std::isfinite(weights[i]) || weights[i] < 0.0)
      return "the weight of issue \"" + d.issues[i].name + "\" is " +
             format_number(weights[i]) + "; weights must be finite and >= 0";
  if (std::accumulate(weights.begin(), weights.end(), 0.0) <= 0.0)
    return "the weights sum to 0; at least one must be positive";
  return {};
}

std::string check_values(const domain& d,
                         const std::vector<std::vector<double>>& values) {
  if (values.size() != d.issues.size())
    return "expected " + std::to_string(d.issues.size()) +
           " value functions, one per issue, got " + std::to_string(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto& x = d.issues[i];
    if (values[i].size() != x.labels.size())
      return "issue \"" + x.name + "\" has " + std::to_string(x.labels.size()) +
             " values but its value function has " + std::to_string(values[i].size());
    for (std::size_t k = 0; k < values[i].size(); ++k)
      if (!in_unit_interval(values[i][k]))
        return "the value of \"" + x.labels[k] + "\" of issue \"" + x.name + "\" is " +
               format_number(values[i][k]) + ", outside [0, 1]";
  }
  return {};
}

/// Returns `weights` divided by their sum.
std::vector<double> normalised_weights(std::vector<double> weights) {
  auto sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  for (auto& w : weights)
    w /= sum;
  return weights;
}

} // namespace

std::string check_linear_utility(const domain& d, const std::vector<double>& weights,
                                 const std::vector<std::vector<double>>& values,
                                 double reservation) {
  if (auto error = check_domain(d); !error.empty())
    return error;
  if (auto error = check_weights(d, weights); !error.empty())
    return error;
  if (auto error = check_values(d, values); !error.empty())
    return error;
  if (!in_unit_interval(reservation))
    return "the reservation value is " + format_number(reservation) +
           ", outside [0, 1]";
  return {};
}

linear_utility::linear_utility(const domain& d, std::vector<double> weights,
                               std::vector<std::vector<double>> values,
                               double reservation)
    : reservation_(reservation) {
  if (auto error = check_linear_utility(d, weights, values, reservation);
      !error.empty())
    throw std::invalid_argument(error);
  weights_ = normalised_weights(std::move(weights));
  values_ = std::move(values);
}

double linear_utility::operator()(const outcome& x) const {
  if (x.size() != values_.size())
    throw std::invalid_argument("an outcome needs " + std::to_string(values_.size()) +
                                " value indices, one per issue, got " +
                                std::to_string(x.size()));
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] >= values_[i].size())
      throw std::invalid_argument("value index " + std::to_string(x[i]) +
                                  " is out of range for issue " + std::to_string(i));
    sum += weights_[i] * values_[i][x[i]];
  }
  return std::min(sum, 1.0); // weights summing to 1 + 1e-16 must not leave [0, 1]
}

bool linear_utility::fits(const domain& d) const {
  if (d.issues.size() != values_.size())
    return false;
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (d.issues[i].labels.size() != values_[i].size())
      return false;
  return true;
}

std::vector<double> rising_values(std::size_t count) {
  if (count == 1)
    return {1.0};
  std::vector<double> result;
  for (std::size_t k = 0; k < count; ++k)
    result.push_back(static_cast<double>(k) / static_cast<double>(count - 1));
  return result;
}

std::vector<double> falling_values(std::size_t count) {
  if (count == 1)
    return {1.0};
  std::vector<double> result;
  for (std::size_t k = 0; k < count; ++k)
    result.push_back(static_cast<double>(count - 1 - k) /
                     static_cast<double>(count - 1));
  return result;
}

} // namespace parley::outcomes
