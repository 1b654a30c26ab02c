#include "outcomes/analysis.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_outcomes_properties_test {

using parley::outcomes::agreement_score;
using parley::outcomes::analyse;
using parley::outcomes::bilateral_analysis;
using parley::outcomes::domain;
using parley::outcomes::dominates;
using parley::outcomes::egalitarian_gain;
using parley::outcomes::enumerate_outcomes;
using parley::outcomes::kalai_smorodinsky_ratio;
using parley::outcomes::linear_utility;
using parley::outcomes::nash_product;
using parley::outcomes::numeric_issue;
using parley::outcomes::point;
using parley::outcomes::proximity;
using parley::outcomes::score_agreement;
using parley::outcomes::score_no_agreement;
using parley::outcomes::swapped;
using parley::outcomes::tie_tolerance;
using parley::outcomes::utility_points;
using parley::outcomes::welfare;

namespace {

using indices = std::vector<std::size_t>;

/// Two parties' utilities over every outcome of a domain, and their
/// reservation values.
struct setting {
  std::vector<point> utilities;
  point reservation;
};

/// A value in [0, 1]; `coarse`, a multiple of 1/4, so that equal utilities
/// and ties occur.
double random_value(std::mt19937& rng, bool coarse) {
  if (coarse)
    return std::uniform_int_distribution<int>(0, 4)(rng) / 4.0;
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

/// One to three issues of one to five values each.
domain random_domain(std::mt19937& rng) {
  domain d;
  auto issues = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int i = 0; i < issues; ++i) {
    auto values = std::uniform_int_distribution<int>(1, 5)(rng);
    d.issues.push_back(numeric_issue("issue" + std::to_string(i), 1, values, 1));
  }
  return d;
}

/// Weights 0..3 (zeros included), random values, a reservation value below 0.6.
linear_utility random_utility(std::mt19937& rng, const domain& d, bool coarse) {
  std::vector<double> weights;
  std::vector<std::vector<double>> values;
  for (const auto& x : d.issues) {
    weights.push_back(std::uniform_int_distribution<int>(0, 3)(rng));
    std::vector<double> v;
    for (std::size_t k = 0; k < x.labels.size(); ++k)
      v.push_back(random_value(rng, coarse));
    values.push_back(v);
  }
  if (std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0.0; }))
    weights[0] = 1.0;
  auto reservation = 0.6 * random_value(rng, coarse);
  return linear_utility{d, weights, values, reservation};
}

/// Fifty random settings, the same in every test case.
std::vector<setting> random_settings() {
  std::mt19937 rng(20240611);
  std::vector<setting> result;
  for (int i = 0; i < 50; ++i) {
    auto d = random_domain(rng);
    auto coarse = rng() % 2 == 0;
    auto first = random_utility(rng, d, coarse);
    auto second = random_utility(rng, d, coarse);
    result.push_back({utility_points(enumerate_outcomes(d), first, second),
                      {first.reservation(), second.reservation()}});
  }
  return result;
}

indices sorted(indices xs) {
  std::sort(xs.begin(), xs.end());
  return xs;
}

/// The outcomes `xs` of a shuffled analysis, as indices of the original
/// order: shuffled outcome k is original outcome `order[k]`.
indices unshuffled(const indices& xs, const indices& order) {
  indices result;
  for (auto x : xs)
    result.push_back(order[x]);
  return sorted(result);
}

/// The best value of `criterion` over the rational outcomes of `a`.
template <class Criterion>
double best_rational_value(const bilateral_analysis& a, Criterion criterion) {
  auto best = -1e300;
  for (auto i : a.rational)
    best = std::max(best, criterion(a.utilities[i]));
  return best;
}

/// Checks that `solution` is non-empty, on the frontier, and that each of its
/// outcomes is within the tie tolerance of the best over all rational outcomes.
template <class Criterion>
void check_solution(const bilateral_analysis& a, const indices& solution,
                    Criterion criterion) {
  REQUIRE_FALSE(solution.empty());
  auto best = best_rational_value(a, criterion);
  for (auto i : solution) {
    CHECK(std::count(a.frontier.begin(), a.frontier.end(), i) == 1);
    CHECK(criterion(a.utilities[i]) >= best - tie_tolerance);
  }
}

void check_same(const std::optional<proximity>& x, const std::optional<proximity>& y) {
  REQUIRE(x.has_value() == y.has_value());
  if (x) {
    CHECK(x->distance == y->distance);
    CHECK(x->optimality == y->optimality);
  }
}

/// Checks that `y` scores the same agreement as `x`, with the parties swapped
/// when `swap`.
void check_same(const agreement_score& x, const agreement_score& y, bool swap) {
  CHECK(y.utilities == (swap ? swapped(x.utilities) : x.utilities));
  CHECK(y.advantages == (swap ? swapped(x.advantages) : x.advantages));
  CHECK(y.welfare == x.welfare);
  CHECK(y.nash_product == x.nash_product);
  check_same(x.pareto, y.pareto);
  check_same(x.nash, y.nash);
  check_same(x.kalai_smorodinsky, y.kalai_smorodinsky);
  check_same(x.egalitarian, y.egalitarian);
  check_same(x.max_welfare, y.max_welfare);
}

} // namespace

TEST_CASE("frontier outcomes are mutually non-dominated", "[unit][outcomes]") {
  for (const auto& s : random_settings()) {
    auto a = analyse(s.utilities, s.reservation);
    for (auto i : a.frontier)
      for (auto j : a.frontier)
        CHECK_FALSE(dominates(a.utilities[i], a.utilities[j]));
  }
}

TEST_CASE("every rational outcome is on or below the frontier", "[unit][outcomes]") {
  for (const auto& s : random_settings()) {
    auto a = analyse(s.utilities, s.reservation);
    for (auto r : a.rational) {
      auto covered = std::any_of(a.frontier.begin(), a.frontier.end(), [&](auto f) {
        return a.utilities[f] == a.utilities[r] ||
               dominates(a.utilities[f], a.utilities[r]);
      });
      CHECK(covered);
    }
  }
}

TEST_CASE("the frontier is what brute force finds", "[unit][outcomes]") {
  for (const auto& s : random_settings()) {
    auto a = analyse(s.utilities, s.reservation);
    indices expected;
    for (auto i : a.rational)
      if (std::none_of(a.rational.begin(), a.rational.end(), [&](auto j) {
            return dominates(a.utilities[j], a.utilities[i]);
          }))
        expected.push_back(i);
    CHECK(sorted(a.frontier) == expected);
  }
}

TEST_CASE("each solution is the best of all rational outcomes", "[unit][outcomes]") {
  for (const auto& s : random_settings()) {
    auto a = analyse(s.utilities, s.reservation);
    if (a.rational.empty())
      continue;
    auto r = a.reservation;
    auto best = a.best_rational;
    check_solution(a, a.nash, [r](point u) { return nash_product(u, r); });
    check_solution(a, a.kalai_smorodinsky,
                   [r, best](point u) { return kalai_smorodinsky_ratio(u, r, best); });
    check_solution(a, a.egalitarian, [r](point u) { return egalitarian_gain(u, r); });
    check_solution(a, a.max_welfare, [](point u) { return welfare(u); });
  }
}

TEST_CASE("shuffling the outcomes changes nothing", "[unit][outcomes]") {
  std::mt19937 rng(7);
  for (const auto& s : random_settings()) {
    auto a = analyse(s.utilities, s.reservation);
    indices order(s.utilities.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<point> shuffled;
    for (auto k : order)
      shuffled.push_back(s.utilities[k]);
    auto b = analyse(shuffled, s.reservation);
    CHECK(unshuffled(b.rational, order) == a.rational);
    CHECK(unshuffled(b.frontier, order) == sorted(a.frontier));
    CHECK(unshuffled(b.nash, order) == sorted(a.nash));
    CHECK(unshuffled(b.kalai_smorodinsky, order) == sorted(a.kalai_smorodinsky));
    CHECK(unshuffled(b.egalitarian, order) == sorted(a.egalitarian));
    CHECK(unshuffled(b.max_welfare, order) == sorted(a.max_welfare));
    CHECK(b.ideal == a.ideal);
    CHECK(b.best_rational == a.best_rational);
    CHECK(b.opposition == a.opposition);
    for (std::size_t k = 0; k < order.size(); ++k)
      check_same(score_agreement(a, order[k]), score_agreement(b, k), false);
  }
}

TEST_CASE("swapping the parties mirrors everything", "[unit][outcomes]") {
  for (const auto& s : random_settings()) {
    auto a = analyse(s.utilities, s.reservation);
    std::vector<point> mirrored;
    for (auto u : s.utilities)
      mirrored.push_back(swapped(u));
    auto c = analyse(mirrored, swapped(s.reservation));
    // The same outcomes, so the same indices; the frontier's order differs.
    CHECK(c.rational == a.rational);
    CHECK(sorted(c.frontier) == sorted(a.frontier));
    CHECK(sorted(c.nash) == sorted(a.nash));
    CHECK(sorted(c.kalai_smorodinsky) == sorted(a.kalai_smorodinsky));
    CHECK(sorted(c.egalitarian) == sorted(a.egalitarian));
    CHECK(sorted(c.max_welfare) == sorted(a.max_welfare));
    CHECK(c.ideal == swapped(a.ideal));
    CHECK(c.best_rational == swapped(a.best_rational));
    CHECK(c.opposition == a.opposition);
    for (std::size_t k = 0; k < s.utilities.size(); ++k)
      check_same(score_agreement(a, k), score_agreement(c, k), true);
    check_same(score_no_agreement(a), score_no_agreement(c), true);
  }
}

} // namespace unit_outcomes_properties_test
