#include "outcomes/frontier.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "outcomes/numbers.hpp"

namespace parley::outcomes {

namespace {

constexpr double minus_infinity = -std::numeric_limits<double>::infinity();

void check_unit_point(point x, const std::string& what) {
  if (!in_unit_interval(x.first) || !in_unit_interval(x.second))
    throw std::invalid_argument(what + " (" + format_number(x.first) + ", " +
                                format_number(x.second) + ") are outside [0, 1]");
}

void check_analysis_input(const std::vector<point>& utilities, point reservation) {
  if (utilities.empty())
    throw std::invalid_argument("there are no outcomes to analyse");
  for (std::size_t i = 0; i < utilities.size(); ++i)
    check_unit_point(utilities[i], "the utilities of outcome " + std::to_string(i));
  check_unit_point(reservation, "the reservation values");
}

/// Returns 0, 1, ..., n - 1.
std::vector<std::size_t> every_index(std::size_t n) {
  std::vector<std::size_t> result(n);
  std::iota(result.begin(), result.end(), std::size_t{0});
  return result;
}

/// Sorts `indices` by the first utility descending, then the second
/// descending, then index.
void sort_best_first(const std::vector<point>& utilities,
                     std::vector<std::size_t>& indices) {
  std::sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
    auto x = utilities[a];
    auto y = utilities[b];
    if (x.first != y.first)
      return x.first > y.first;
    if (x.second != y.second)
      return x.second > y.second;
    return a < b;
  });
}

/// Returns the end of the run of `sorted` from `begin` with one first utility.
std::size_t end_of_group(const std::vector<point>& utilities,
                         const std::vector<std::size_t>& sorted, std::size_t begin) {
  auto end = begin;
  while (end < sorted.size() &&
         utilities[sorted[end]].first == utilities[sorted[begin]].first)
    ++end;
  return end;
}

/// Returns `u` as a share of the party's best utility; `u` itself when the
/// best is 0, as NegMAS does.
double relative_to_ideal(double u, double ideal) {
  return ideal > 0.0 ? u / ideal : u;
}

/// Returns every frontier outcome within `tie_tolerance` of the best value of
/// `criterion`.
template <class Criterion>
std::vector<std::size_t> best_on_frontier(const std::vector<point>& utilities,
                                          const std::vector<std::size_t>& frontier,
                                          Criterion criterion) {
  auto best = minus_infinity;
  for (auto i : frontier)
    best = std::max(best, criterion(utilities[i]));
  std::vector<std::size_t> result;
  for (auto i : frontier)
    if (criterion(utilities[i]) >= best - tie_tolerance)
      result.push_back(i);
  return result;
}

void find_solutions(bilateral_analysis& a) {
  auto r = a.reservation;
  auto best = a.best_rational;
  const auto& u = a.utilities;
  a.nash = best_on_frontier(u, a.frontier, [r](point x) { return nash_product(x, r); });
  a.kalai_smorodinsky = best_on_frontier(u, a.frontier, [r, best](point x) {
    return kalai_smorodinsky_ratio(x, r, best);
  });
  a.egalitarian =
      best_on_frontier(u, a.frontier, [r](point x) { return egalitarian_gain(x, r); });
  a.max_welfare = best_on_frontier(u, a.frontier, [](point x) { return welfare(x); });
}

} // namespace

std::vector<std::size_t> rational_outcomes(const std::vector<point>& utilities,
                                           point reservation) {
  std::vector<std::size_t> result;
  for (std::size_t i = 0; i < utilities.size(); ++i)
    if (is_rational(utilities[i], reservation))
      result.push_back(i);
  return result;
}

std::vector<std::size_t> pareto_frontier(const std::vector<point>& utilities,
                                         std::vector<std::size_t> among) {
  sort_best_first(utilities, among);
  // Groups of equal first utility, best first. In a group only the outcomes
  // with its top second utility can survive, and only when no earlier group
  // (with a better first utility) reached that second utility.
  std::vector<std::size_t> result;
  auto earlier_second = minus_infinity;
  for (std::size_t begin = 0; begin < among.size();) {
    auto end = end_of_group(utilities, among, begin);
    auto top = utilities[among[begin]].second;
    for (auto k = begin; k < end && top > earlier_second; ++k)
      if (utilities[among[k]].second == top)
        result.push_back(among[k]);
    earlier_second = std::max(earlier_second, top);
    begin = end;
  }
  return result;
}

point best_utilities(const std::vector<point>& utilities,
                     const std::vector<std::size_t>& among, point otherwise) {
  if (among.empty())
    return otherwise;
  point best{minus_infinity, minus_infinity};
  for (auto i : among)
    best = {std::max(best.first, utilities[i].first),
            std::max(best.second, utilities[i].second)};
  return best;
}

double opposition_level(const std::vector<point>& utilities) {
  if (utilities.empty())
    throw std::invalid_argument("there are no outcomes to measure opposition on");
  auto ideal = best_utilities(utilities, every_index(utilities.size()), {});
  auto nearest = std::numeric_limits<double>::infinity();
  for (auto u : utilities) {
    point relative{relative_to_ideal(u.first, ideal.first),
                   relative_to_ideal(u.second, ideal.second)};
    nearest = std::min(nearest, distance(relative, {1.0, 1.0}));
  }
  return nearest;
}

bilateral_analysis analyse(std::vector<point> utilities, point reservation) {
  check_analysis_input(utilities, reservation);
  bilateral_analysis a;
  a.utilities = std::move(utilities);
  a.reservation = reservation;
  a.ideal = best_utilities(a.utilities, every_index(a.utilities.size()), reservation);
  a.rational = rational_outcomes(a.utilities, reservation);
  a.best_rational = best_utilities(a.utilities, a.rational, reservation);
  a.frontier = pareto_frontier(a.utilities, a.rational);
  find_solutions(a);
  a.opposition = opposition_level(a.utilities);
  return a;
}

} // namespace parley::outcomes
