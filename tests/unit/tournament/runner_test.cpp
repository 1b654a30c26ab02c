#include "tournament/runner.hpp"

#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "tournament/tables.hpp"

namespace unit_tournament_runner_test {

using parley::tournament::negotiation_count;
using parley::tournament::parse_spec;
using parley::tournament::role;
using parley::tournament::run_options;
using parley::tournament::run_tournament;
using parley::tournament::tournament_results;

namespace {

/// The worked example of docs/outcomes.md and a two-issue scenario, with noise.
const char* two_scenarios = R"({
  "strategies": ["linear", "hardliner", "tit_for_tat", "micro", "random", "rule_balanced"],
  "repetitions": 3,
  "noise": {"opening": 0.1, "reservation": 0.05},
  "scenarios": [
    {"name": "textbook_price", "max_rounds": 10,
     "domain": {"amount": {"min": 100, "max": 1100, "step": 100}},
     "buyer": {"reservation": 0.3}, "seller": {"reservation": 0.1}},
    {"name": "price_and_days", "max_rounds": 8,
     "domain": {"amount": {"min": 100, "max": 200, "step": 10},
                "terms": [{"name": "days", "values": [2, 7, 14]}]},
     "buyer": {"weights": {"amount": 0.5, "days": 0.5},
               "values": {"days": [1, 0.5, 0]}, "reservation": 0.2},
     "seller": {"weights": {"amount": 0.8, "days": 0.2},
                "values": {"days": [0, 0.5, 1]}, "reservation": 0.2}}
  ]
})";

tournament_results run(std::size_t jobs, std::uint64_t seed = 11) {
  run_options options;
  options.jobs = jobs;
  options.seed = seed;
  auto r = run_tournament(parse_spec(two_scenarios), options);
  r.scores = parley::tournament::compute_scores(r);
  return r;
}

std::string tables_of(const tournament_results& r) {
  std::ostringstream out;
  parley::tournament::write_negotiations_csv(r, out);
  parley::tournament::write_scores_csv(r, out);
  parley::tournament::write_scenarios_csv(r, out);
  return out.str();
}

} // namespace

TEST_CASE("a tournament plays every pairing, both sides opening, in its order") {
  auto spec = parse_spec(two_scenarios);
  CHECK(negotiation_count(spec) == 6 * 6 * 2 * 3 * 2);
  auto r = run(1);
  REQUIRE(r.negotiations.size() == 432);
  for (std::size_t i = 0; i < r.negotiations.size(); ++i) {
    const auto& n = r.negotiations[i];
    CHECK(n.index == i);
    CHECK(n.opener == (i % 2 == 0 ? role::buyer : role::seller));
    CHECK(n.seller_strategy == i / 2 % 6);
    CHECK(n.buyer_strategy == i / 12 % 6);
    CHECK(n.repetition == i / 72 % 3);
    CHECK(n.scenario == i / 216);
    CHECK(n.rounds >= 2);
    CHECK((n.repetition == 0) == !n.trace.empty());
  }
}

TEST_CASE("a tournament's tables are the same for any number of jobs") {
  auto one = tables_of(run(1));
  CHECK(tables_of(run(2)) == one);
  CHECK(tables_of(run(5)) == one);
  CHECK(tables_of(run(1, 12)) != one);
}

TEST_CASE("strategy brains never agree below their reservation values") {
  auto r = run(2);
  std::size_t agreements = 0;
  for (const auto& n : r.negotiations) {
    // rule_balanced (index 5) bargains over the amount alone.
    if (!n.agreement || n.buyer_strategy == 5 || n.seller_strategy == 5)
      continue;
    ++agreements;
    CHECK(n.score.utilities.first >= n.reservation.first - 1e-9);
    CHECK(n.score.utilities.second >= n.reservation.second - 1e-9);
  }
  CHECK(agreements > 50);
}

TEST_CASE("two hardliners never agree, and a linear pair agrees on the frontier") {
  auto r = run(1);
  for (const auto& n : r.negotiations) {
    if (n.buyer_strategy == 1 && n.seller_strategy == 1) {
      CHECK_FALSE(n.agreement);
      CHECK(n.status == "rejected");
      CHECK(n.score.advantages.first == 0.0);
    }
    // One issue: every rational outcome is Pareto-optimal.
    if (n.scenario == 0 && n.buyer_strategy == 0 && n.seller_strategy == 0) {
      REQUIRE(n.agreement);
      REQUIRE(n.score.pareto);
      CHECK(n.score.pareto->distance == Approx(0.0).margin(1e-12));
    }
  }
}

TEST_CASE("the scenario summary is the analysis of the spec's reservation values") {
  auto r = run(1);
  const auto& s = r.scenarios.at(0);
  CHECK(s.name == "textbook_price");
  CHECK(s.outcomes.size() == 11);
  CHECK(s.frontier.size() == 7);
  REQUIRE(s.nash.size() == 1);
  CHECK(s.outcomes[s.nash[0]].first == Approx(0.6));
  CHECK(s.outcomes[s.nash[0]].second == Approx(0.4));
  CHECK(s.opposition == Approx(0.7071068));
}

} // namespace unit_tournament_runner_test
