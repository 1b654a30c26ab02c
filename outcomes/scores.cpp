#include "outcomes/scores.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "outcomes/numbers.hpp"

namespace parley::outcomes {

namespace {

/// Returns how close `u` is to the nearest of the outcomes `targets`; empty
/// when there are none.
std::optional<proximity> proximity_to(const bilateral_analysis& a, point u,
                                      const std::vector<std::size_t>& targets) {
  if (targets.empty())
    return std::nullopt;
  auto nearest = std::numeric_limits<double>::infinity();
  for (auto i : targets)
    nearest = std::min(nearest, distance(u, a.utilities[i]));
  return proximity{nearest, 1.0 - nearest / max_distance};
}

} // namespace

agreement_score score_point(const bilateral_analysis& a, point u) {
  if (!in_unit_interval(u.first) || !in_unit_interval(u.second))
    throw std::invalid_argument("the utilities (" + format_number(u.first) + ", " +
                                format_number(u.second) + ") are outside [0, 1]");
  agreement_score s;
  s.utilities = u;
  s.advantages = advantages(u, a.reservation, a.ideal);
  s.welfare = welfare(u);
  s.nash_product = nash_product(u, a.reservation);
  s.pareto = proximity_to(a, u, a.frontier);
  s.nash = proximity_to(a, u, a.nash);
  s.kalai_smorodinsky = proximity_to(a, u, a.kalai_smorodinsky);
  s.egalitarian = proximity_to(a, u, a.egalitarian);
  s.max_welfare = proximity_to(a, u, a.max_welfare);
  return s;
}

agreement_score score_agreement(const bilateral_analysis& a, std::size_t index) {
  if (index >= a.utilities.size())
    throw std::invalid_argument("there is no outcome " + std::to_string(index) +
                                " among " + std::to_string(a.utilities.size()));
  return score_point(a, a.utilities[index]);
}

agreement_score score_no_agreement(const bilateral_analysis& a) {
  return score_point(a, a.reservation);
}

} // namespace parley::outcomes
