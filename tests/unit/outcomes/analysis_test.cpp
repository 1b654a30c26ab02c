#include "outcomes/analysis.hpp"

#include <cstddef>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_outcomes_analysis_test {

using parley::outcomes::analyse;
using parley::outcomes::bilateral_analysis;
using parley::outcomes::describe_outcome;
using parley::outcomes::domain;
using parley::outcomes::enumerate_outcomes;
using parley::outcomes::falling_values;
using parley::outcomes::linear_utility;
using parley::outcomes::numeric_issue;
using parley::outcomes::point;
using parley::outcomes::rising_values;
using parley::outcomes::score_agreement;
using parley::outcomes::score_no_agreement;
using parley::outcomes::score_point;

namespace {

using indices = std::vector<std::size_t>;

/// One issue, price 0..10; the buyer's utility is (10 - p) / 10 with
/// reservation value 0.3, the seller's p / 10 with 0.1.
struct price_case {
  domain d{{numeric_issue("price", 0, 10, 1)}};
  linear_utility buyer{d, {1.0}, {falling_values(11)}, 0.3};
  linear_utility seller{d, {1.0}, {rising_values(11)}, 0.1};
  bilateral_analysis a = analyse(d, buyer, seller);
};

} // namespace

TEST_CASE("price 0..10: rational outcomes and the frontier", "[unit][outcomes]") {
  price_case c;
  // The buyer needs (10 - p) / 10 >= 0.3, p <= 7; the seller p / 10 >= 0.1,
  // p >= 1. Outcome i is price i.
  CHECK(c.a.rational == indices{1, 2, 3, 4, 5, 6, 7});
  // All on the line u1 + u2 = 1, so none dominates another; buyer's best first.
  CHECK(c.a.frontier == indices{1, 2, 3, 4, 5, 6, 7});
  CHECK(c.a.ideal == point{1.0, 1.0});
  CHECK(c.a.best_rational.first == Approx(0.9));
  CHECK(c.a.best_rational.second == Approx(0.7));
}

TEST_CASE("price 0..10: the bargaining solutions", "[unit][outcomes]") {
  price_case c;
  // Gains over the reservation values: buyer (7 - p) / 10, seller (p - 1) / 10.
  // Nash: (7 - p)(p - 1) / 100 is 0.08, 0.09, 0.08 at p = 3, 4, 5: p = 4,
  // (0.6 - 0.3) * (0.4 - 0.1) = 0.09.
  CHECK(c.a.nash == indices{4});
  // Kalai–Smorodinsky: best rational utilities 0.9 and 0.7, so the ratios are
  // (7 - p) / 6 and (p - 1) / 6, equal (0.5) at p = 4.
  CHECK(c.a.kalai_smorodinsky == indices{4});
  // Egalitarian: min((7 - p) / 10, (p - 1) / 10) is largest, 0.3, at p = 4.
  CHECK(c.a.egalitarian == indices{4});
  // Max welfare: u1 + u2 = 1 at every rational price, so all seven tie.
  CHECK(c.a.max_welfare == indices{1, 2, 3, 4, 5, 6, 7});
  // Opposition: ideal (1, 1); sqrt((p/10)^2 + ((10-p)/10)^2) is least at p = 5.
  CHECK(c.a.opposition == Approx(0.7071068));
}

TEST_CASE("price 0..10: an agreement at p = 6", "[unit][outcomes]") {
  price_case c;
  auto s = score_agreement(c.a, 6);
  CHECK(s.utilities.first == Approx(0.4));
  CHECK(s.utilities.second == Approx(0.6));
  // (0.4 - 0.3) / (1 - 0.3) and (0.6 - 0.1) / (1 - 0.1).
  CHECK(s.advantages.first == Approx(0.142857).epsilon(1e-5));
  CHECK(s.advantages.second == Approx(0.555556).epsilon(1e-5));
  CHECK(s.welfare == Approx(1.0));
  CHECK(s.nash_product == Approx(0.05)); // 0.1 * 0.5
  REQUIRE(s.nash);
  // To the Nash point (0.6, 0.4): sqrt(0.2^2 + 0.2^2); 1 - 0.2828 / sqrt(2).
  CHECK(s.nash->distance == Approx(0.2828427));
  CHECK(s.nash->optimality == Approx(0.8));
  REQUIRE(s.kalai_smorodinsky);
  CHECK(s.kalai_smorodinsky->distance == Approx(0.2828427));
  REQUIRE(s.pareto);
  CHECK(s.pareto->distance == Approx(0.0).margin(1e-12));
  CHECK(s.pareto->optimality == Approx(1.0));
  REQUIRE(s.max_welfare);
  CHECK(s.max_welfare->distance == Approx(0.0).margin(1e-12));
}

TEST_CASE("price 0..10: no agreement scores the reservation values",
          "[unit][outcomes]") {
  price_case c;
  auto s = score_no_agreement(c.a);
  CHECK(s.utilities == point{0.3, 0.1});
  CHECK(s.advantages == point{0.0, 0.0});
  CHECK(s.welfare == Approx(0.4));
  CHECK(s.nash_product == Approx(0.0).margin(1e-12));
  // (0.3, 0.1) is 0.6 / sqrt(2) from the line u1 + u2 = 1, whose nearest point
  // (0.6, 0.4) is the frontier outcome p = 4, the Nash point too.
  REQUIRE(s.pareto);
  CHECK(s.pareto->distance == Approx(0.4242641));
  CHECK(s.pareto->optimality == Approx(0.7));
  REQUIRE(s.nash);
  CHECK(s.nash->distance == Approx(0.4242641));
}

TEST_CASE("price 0..10: an irrational agreement has a negative advantage",
          "[unit][outcomes]") {
  price_case c;
  // p = 9: the buyer gets 0.1 < 0.3, (0.1 - 0.3) / 0.7.
  auto s = score_agreement(c.a, 9);
  CHECK(s.advantages.first == Approx(-0.285714).epsilon(1e-5));
  CHECK(s.advantages.second == Approx(0.888889).epsilon(1e-5));
}

TEST_CASE("price x delivery days: a dominated agreement", "[unit][outcomes]") {
  // Price 0, 5, 10 and delivery in 1, 2, 3 days. The buyer wants a low price
  // and fast delivery, weights 0.75 and 0.25; the seller a high price and slow
  // delivery, weights 0.5 and 0.5. Reservation values 0.2 each.
  domain d{{numeric_issue("price", 0, 10, 5), numeric_issue("days", 1, 3, 1)}};
  linear_utility buyer{d, {0.75, 0.25}, {falling_values(3), falling_values(3)}, 0.2};
  linear_utility seller{d, {0.5, 0.5}, {rising_values(3), rising_values(3)}, 0.2};
  auto a = analyse(d, buyer, seller);
  // Outcome 3 * price index + days index:
  //   0 (1, 0)      1 (0.875, 0.25)  2 (0.75, 0.5)
  //   3 (0.625, 0.25)  4 (0.5, 0.5)  5 (0.375, 0.75)
  //   6 (0.25, 0.5)  7 (0.125, 0.75)  8 (0, 1)
  // 0, 7 and 8 leave one party below 0.2. Among the rest, 1 dominates 3 and
  // 2 dominates 4 and 6.
  CHECK(a.rational == indices{1, 2, 3, 4, 5, 6});
  CHECK(a.frontier == indices{1, 2, 5});
  // Nash products 0.675 * 0.05, 0.55 * 0.3 (largest), 0.175 * 0.55; the
  // Kalai–Smorodinsky ratios (best rational 0.875 and 0.75) 0.09, 0.55, 0.26;
  // least gains 0.05, 0.3, 0.175; welfare 1.125, 1.25, 1.125: outcome 2.
  CHECK(a.nash == indices{2});
  CHECK(a.kalai_smorodinsky == indices{2});
  CHECK(a.egalitarian == indices{2});
  CHECK(a.max_welfare == indices{2});
  // Ideal (1, 1): outcome 2 is sqrt(0.25^2 + 0.5^2) from it, the nearest.
  CHECK(a.opposition == Approx(0.5590170));

  auto outcomes = enumerate_outcomes(d);
  CHECK(describe_outcome(d, outcomes[4]) == "price=5, days=2");
  // Price 5 in 2 days, (0.5, 0.5): 0.25 below outcome 2 (price 0 in 3 days).
  auto split = score_agreement(a, 4);
  REQUIRE(split.pareto);
  CHECK(split.pareto->distance == Approx(0.25));
  CHECK(split.pareto->optimality == Approx(1.0 - 0.25 / 1.4142136));
  CHECK(split.nash->distance == Approx(0.25));
  // (0.5 - 0.2) / (1 - 0.2) each.
  CHECK(split.advantages.first == Approx(0.375));
  CHECK(split.advantages.second == Approx(0.375));
  auto best = score_agreement(a, 2);
  CHECK(best.pareto->distance == Approx(0.0).margin(1e-12));
  CHECK(best.nash->distance == Approx(0.0).margin(1e-12));
}

TEST_CASE("price x warranty: trading issues beats splitting both", "[unit][outcomes]") {
  // Price (buyer's values falling) and warranty years (buyer's values
  // rising). The buyer cares three times more about price, the seller three
  // times more about warranty; the weights are given unscaled.
  domain d{{numeric_issue("price", 0, 100, 50), numeric_issue("warranty", 0, 2, 1)}};
  linear_utility buyer{d, {3.0, 1.0}, {falling_values(3), rising_values(3)}, 0.5};
  linear_utility seller{d, {1.0, 3.0}, {rising_values(3), falling_values(3)}, 0.25};
  CHECK(buyer.weights() == std::vector<double>{0.75, 0.25});
  auto a = analyse(d, buyer, seller);
  // Outcome 3 * price index + warranty index:
  //   0 (0.75, 0.75)    1 (0.875, 0.375)  2 (1, 0)
  //   3 (0.375, 0.875)  4 (0.5, 0.5)      5 (0.625, 0.125)
  //   6 (0, 1)          7 (0.125, 0.625)  8 (0.25, 0.25)
  // Rational (u1 >= 0.5, u2 >= 0.25): 0, 1, 4; 0 dominates 4.
  CHECK(a.rational == indices{0, 1, 4});
  CHECK(a.frontier == indices{1, 0});
  // Outcome 0 (lowest price, no warranty) wins every criterion: Nash
  // 0.25 * 0.5 against 0.375 * 0.125; ratios (best rational 0.875, 0.75)
  // min(0.67, 1) against min(1, 0.25); least gains 0.25 against 0.125;
  // welfare 1.5 against 1.25.
  CHECK(a.nash == indices{0});
  CHECK(a.kalai_smorodinsky == indices{0});
  CHECK(a.egalitarian == indices{0});
  CHECK(a.max_welfare == indices{0});
  CHECK(a.opposition == Approx(0.3535534));
  // Splitting both issues, (0.5, 0.5): sqrt(0.25^2 + 0.25^2) from outcome 0,
  // sqrt(0.375^2 + 0.125^2) = 0.395 from outcome 1.
  auto split = score_agreement(a, 4);
  REQUIRE(split.pareto);
  CHECK(split.pareto->distance == Approx(0.3535534));
  CHECK(split.pareto->optimality == Approx(0.75));
  CHECK(split.max_welfare->distance == Approx(0.3535534));
  // The buyer gets exactly its reservation value; the seller
  // (0.5 - 0.25) / (1 - 0.25).
  CHECK(split.advantages.first == Approx(0.0).margin(1e-12));
  CHECK(split.advantages.second == Approx(0.333333).epsilon(1e-5));
  CHECK(score_agreement(a, 0).pareto->distance == Approx(0.0).margin(1e-12));
  CHECK(score_agreement(a, 1).pareto->distance == Approx(0.0).margin(1e-12));
}

TEST_CASE("the four solutions can be four different outcomes", "[unit][outcomes]") {
  // Reservation values 0. X (0.5, 0.2) is dominated by P; the others form
  // the frontier A, Q, P, C, D.
  std::vector<point> u{
      {0.5, 0.2},   // 0 X
      {0.1, 0.4},   // 1 D
      {0.7, 0.28},  // 2 P
      {1.0, 0.18},  // 3 A
      {0.4, 0.36},  // 4 C
      {0.95, 0.22}, // 5 Q
  };
  auto a = analyse(u, {0.0, 0.0});
  CHECK(a.frontier == indices{3, 5, 2, 4, 1});
  // Nash products A 0.18, Q 0.209, P 0.196, C 0.144, D 0.04.
  CHECK(a.nash == indices{5});
  // Best rational (1, 0.4); ratios min(u1, u2 / 0.4): A 0.45, Q 0.55, P 0.7,
  // C 0.4, D 0.1.
  CHECK(a.kalai_smorodinsky == indices{2});
  // Least utility: A 0.18, Q 0.22, P 0.28, C 0.36, D 0.1.
  CHECK(a.egalitarian == indices{4});
  // Welfare: A 1.18, Q 1.17, P 0.98, C 0.76, D 0.5.
  CHECK(a.max_welfare == indices{3});
  // Relative to the ideal (1, 0.4), P is (0.7, 0.7): sqrt(2 * 0.3^2) from (1, 1).
  CHECK(a.opposition == Approx(0.4242641));

  auto x = score_agreement(a, 0);
  CHECK(x.pareto->distance == Approx(0.1886796));            // to C
  CHECK(x.nash->distance == Approx(0.4504442));              // to Q
  CHECK(x.kalai_smorodinsky->distance == Approx(0.2154066)); // to P
  CHECK(x.egalitarian->distance == Approx(0.1886796));       // to C
  CHECK(x.max_welfare->distance == Approx(0.5003998));       // to A
}

TEST_CASE("mirrored ties are all reported", "[unit][outcomes]") {
  // (0.2, 0.8) and (0.8, 0.2) have the same Nash product; no tie-break on
  // the utilities could pick one without favouring a party.
  auto a = analyse({{0.2, 0.8}, {0.8, 0.2}, {0.1, 0.1}}, {0.0, 0.0});
  CHECK(a.frontier == indices{1, 0});
  CHECK(a.nash == indices{1, 0});
  CHECK(a.kalai_smorodinsky == indices{1, 0});
  CHECK(a.egalitarian == indices{1, 0});
  CHECK(a.max_welfare == indices{1, 0});
  // The distance to a solution is to its nearest tied outcome.
  auto s = score_point(a, {0.7, 0.3});
  CHECK(s.nash->distance == Approx(0.1414214));
}

TEST_CASE("outcomes with equal utilities are all on the frontier", "[unit][outcomes]") {
  auto a = analyse({{0.5, 0.5}, {0.6, 0.4}, {0.5, 0.5}, {0.4, 0.4}}, {0.0, 0.0});
  CHECK(a.frontier == indices{1, 0, 2});
  CHECK(a.nash == indices{0, 2});
}

TEST_CASE("without a rational outcome there is no frontier to score against",
          "[unit][outcomes]") {
  auto a = analyse({{0.2, 0.9}, {0.9, 0.2}}, {0.5, 0.5});
  CHECK(a.rational.empty());
  CHECK(a.frontier.empty());
  CHECK(a.nash.empty());
  CHECK(a.best_rational == point{0.5, 0.5});
  auto s = score_no_agreement(a);
  CHECK(s.utilities == point{0.5, 0.5});
  CHECK(s.advantages == point{0.0, 0.0});
  CHECK_FALSE(s.pareto);
  CHECK_FALSE(s.nash);
  CHECK_FALSE(s.max_welfare);
}

} // namespace unit_outcomes_analysis_test
