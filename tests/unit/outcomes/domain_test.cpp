#include "outcomes/analysis.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_outcomes_domain_test {

using parley::outcomes::analyse;
using parley::outcomes::check_domain;
using parley::outcomes::check_linear_utility;
using parley::outcomes::describe_outcome;
using parley::outcomes::domain;
using parley::outcomes::enumerate_outcomes;
using parley::outcomes::falling_values;
using parley::outcomes::label_issue;
using parley::outcomes::linear_utility;
using parley::outcomes::numeric_issue;
using parley::outcomes::outcome;
using parley::outcomes::outcome_count;
using parley::outcomes::point;
using parley::outcomes::rising_values;
using parley::outcomes::score_agreement;
using parley::outcomes::score_point;

namespace {

const auto not_a_number = std::numeric_limits<double>::quiet_NaN();

/// Price 0, 1, 2 and a colour.
domain small_domain() {
  return domain{
      {numeric_issue("price", 0, 2, 1), label_issue("colour", {"red", "blue"})}};
}

/// Returns the message of the std::invalid_argument `f` throws.
template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

} // namespace

TEST_CASE("a numeric issue lists its values and labels them", "[unit][outcomes]") {
  auto price = numeric_issue("price", 0, 10, 1);
  CHECK(price.name == "price");
  CHECK(price.numbers.size() == 11);
  CHECK(price.labels.front() == "0");
  CHECK(price.labels.back() == "10");
  auto share = numeric_issue("share", 0, 1, 0.1);
  REQUIRE(share.labels.size() == 11);
  CHECK(share.labels[3] == "0.3");
  CHECK(share.numbers.back() == 1.0);
  // 10 is no whole number of steps of 3 from 0.
  CHECK(numeric_issue("n", 0, 10, 3).numbers == std::vector<double>{0, 3, 6, 9});
  CHECK(numeric_issue("one", 5, 5, 1).labels == std::vector<std::string>{"5"});
}

TEST_CASE("outcomes are enumerated with the last issue fastest", "[unit][outcomes]") {
  auto d = small_domain();
  CHECK(check_domain(d).empty());
  CHECK(outcome_count(d) == 6);
  auto xs = enumerate_outcomes(d);
  CHECK(xs == std::vector<outcome>{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}});
  CHECK(describe_outcome(d, xs[3]) == "price=1, colour=blue");
}

TEST_CASE("rising and falling values span [0, 1]", "[unit][outcomes]") {
  CHECK(rising_values(3) == std::vector<double>{0.0, 0.5, 1.0});
  CHECK(falling_values(5) == std::vector<double>{1.0, 0.75, 0.5, 0.25, 0.0});
  CHECK(rising_values(1) == std::vector<double>{1.0});
  CHECK(falling_values(0).empty());
}

TEST_CASE("a linear utility is the weighted sum of its values", "[unit][outcomes]") {
  auto d = small_domain();
  linear_utility u{d, {2.0, 2.0}, {rising_values(3), {0.0, 1.0}}, 0.25};
  CHECK(u.weights() == std::vector<double>{0.5, 0.5});
  CHECK(u.reservation() == 0.25);
  CHECK(u({0, 0}) == 0.0);
  CHECK(u({1, 1}) == 0.75);
  CHECK(u({2, 1}) == 1.0);
  // A weight of 0 is allowed: the issue does not matter.
  linear_utility price_only{d, {1.0, 0.0}, {rising_values(3), {0.0, 1.0}}, 0.0};
  CHECK(price_only({1, 0}) == price_only({1, 1}));
  // Thirds that sum to a hair above 1 still give at most 1.
  domain three{
      {label_issue("a", {"x"}), label_issue("b", {"x"}), label_issue("c", {"x"})}};
  linear_utility thirds{three, {1.0, 1.0, 1.0}, {{1.0}, {1.0}, {1.0}}, 0.0};
  CHECK(thirds({0, 0, 0}) <= 1.0);
  CHECK(thirds({0, 0, 0}) == Approx(1.0));
}

TEST_CASE("bad weights are refused with a clear message", "[unit][outcomes]") {
  auto d = small_domain();
  std::vector<std::vector<double>> values{rising_values(3), {0.0, 1.0}};
  CHECK(check_linear_utility(d, {1.0, -0.5}, values, 0.0) ==
        "the weight of issue \"colour\" is -0.5; weights must be finite and >= 0");
  CHECK(check_linear_utility(d, {not_a_number, 1.0}, values, 0.0) ==
        "the weight of issue \"price\" is nan; weights must be finite and >= 0");
  CHECK(check_linear_utility(d, {0.0, 0.0}, values, 0.0) ==
        "the weights sum to 0; at least one must be positive");
  CHECK(check_linear_utility(d, {1.0}, values, 0.0) ==
        "expected 2 weights, one per issue, got 1");
  CHECK(error_of([&] {
          linear_utility(d, {1.0, -1.0}, values, 0.0);
        }) == "the weight of issue \"colour\" is -1; weights must be finite and >= 0");
}

TEST_CASE("bad values and reservation values are refused", "[unit][outcomes]") {
  auto d = small_domain();
  CHECK(check_linear_utility(d, {1.0, 1.0}, {rising_values(3)}, 0.0) ==
        "expected 2 value functions, one per issue, got 1");
  CHECK(check_linear_utility(d, {1.0, 1.0}, {rising_values(2), {0.0, 1.0}}, 0.0) ==
        "issue \"price\" has 3 values but its value function has 2");
  CHECK(check_linear_utility(d, {1.0, 1.0}, {rising_values(3), {0.0, 1.5}}, 0.0) ==
        "the value of \"blue\" of issue \"colour\" is 1.5, outside [0, 1]");
  CHECK(check_linear_utility(d, {1.0, 1.0}, {rising_values(3), {not_a_number, 1.0}},
                             0.0) ==
        "the value of \"red\" of issue \"colour\" is nan, outside [0, 1]");
  CHECK(check_linear_utility(d, {1.0, 1.0}, {rising_values(3), {0.0, 1.0}}, 1.2) ==
        "the reservation value is 1.2, outside [0, 1]");
}

TEST_CASE("an empty domain is refused", "[unit][outcomes]") {
  domain none;
  CHECK(check_domain(none) == "the domain has no issues");
  CHECK(outcome_count(none) == 0);
  CHECK(error_of([&] { enumerate_outcomes(none); }) == "the domain has no issues");
  CHECK(check_linear_utility(none, {}, {}, 0.0) == "the domain has no issues");
  domain empty_issue{{label_issue("colour", {})}};
  CHECK(check_domain(empty_issue) == "issue \"colour\" has no values");
  CHECK(error_of([&] { enumerate_outcomes(empty_issue); }) ==
        "issue \"colour\" has no values");
  domain mismatched{{parley::outcomes::issue{"n", {"1", "2"}, {1.0}}}};
  CHECK(check_domain(mismatched) == "issue \"n\" has 2 labels but 1 numbers");
  CHECK(error_of([] {
          analyse(std::vector<point>{}, {0.0, 0.0});
        }) == "there are no outcomes to analyse");
}

TEST_CASE("too large a domain is refused before it is enumerated", "[unit][outcomes]") {
  auto hundred = numeric_issue("n", 1, 100, 1);
  domain big{{hundred, hundred, hundred, hundred}};
  CHECK(outcome_count(big) == 100'000'000);
  CHECK(error_of([&] { enumerate_outcomes(big); }) ==
        "the domain has 100000000 outcomes, more than the limit of 1000000");
  domain huge{std::vector<parley::outcomes::issue>(20, hundred)};
  CHECK(outcome_count(huge) == std::numeric_limits<std::size_t>::max());
  CHECK(error_of([&] { enumerate_outcomes(huge); }) ==
        "the domain has more than 18446744073709551615 outcomes, more than the "
        "limit of 1000000");
  auto d = small_domain();
  CHECK(error_of([&] { enumerate_outcomes(d, 5); }) ==
        "the domain has 6 outcomes, more than the limit of 5");
  CHECK(enumerate_outcomes(d, 6).size() == 6);
  linear_utility u{
      big, {1, 1, 1, 1}, std::vector<std::vector<double>>(4, rising_values(100)), 0.0};
  CHECK(error_of([&] { analyse(big, u, u); }) ==
        "the domain has 100000000 outcomes, more than the limit of 1000000");
}

TEST_CASE("bad numeric issues are refused", "[unit][outcomes]") {
  CHECK(error_of([] { numeric_issue("n", 0, 10, 0); }) ==
        "numeric issue: step must be > 0, got 0");
  CHECK(error_of([] { numeric_issue("n", 10, 0, 1); }) ==
        "numeric issue: from (10) must not exceed to (0)");
  CHECK(error_of([] { numeric_issue("n", 0, not_a_number, 1); }) ==
        "numeric issue: from, to and step must be finite");
  CHECK(error_of([] { numeric_issue("n", 0, 1e7, 1); }) ==
        "numeric issue: more than 1000000 values");
}

TEST_CASE("outcomes and utilities that do not fit are refused", "[unit][outcomes]") {
  auto d = small_domain();
  linear_utility u{d, {1.0, 1.0}, {rising_values(3), {0.0, 1.0}}, 0.0};
  CHECK(error_of([&] { u({1}); }) ==
        "an outcome needs 2 value indices, one per issue, got 1");
  CHECK(error_of([&] { u({3, 0}); }) == "value index 3 is out of range for issue 0");
  CHECK(error_of([&] {
          describe_outcome(d, {0, 2});
        }) == "value index 2 is out of range for issue \"colour\"");
  domain other{
      {numeric_issue("price", 0, 3, 1), label_issue("colour", {"red", "blue"})}};
  CHECK_FALSE(u.fits(other));
  linear_utility v{other, {1.0, 1.0}, {rising_values(4), {0.0, 1.0}}, 0.0};
  CHECK(error_of([&] { analyse(d, u, v); }) ==
        "the second party's utility was made for another domain");
}

TEST_CASE("utilities outside [0, 1] are refused", "[unit][outcomes]") {
  CHECK(error_of([] {
          analyse({{0.5, 1.5}}, {0.0, 0.0});
        }) == "the utilities of outcome 0 (0.5, 1.5) are outside [0, 1]");
  CHECK(error_of([] {
          analyse({{0.5, 0.5}}, {-0.1, 0.0});
        }) == "the reservation values (-0.1, 0) are outside [0, 1]");
  auto a = analyse({{0.5, 0.5}}, {0.0, 0.0});
  CHECK(error_of([&] {
          score_point(a, {not_a_number, 0.5});
        }) == "the utilities (nan, 0.5) are outside [0, 1]");
  CHECK(error_of([&] { score_agreement(a, 1); }) == "there is no outcome 1 among 1");
}

} // namespace unit_outcomes_domain_test
