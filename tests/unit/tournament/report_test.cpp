#include "tournament/report.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "outcomes/frontier.hpp"
#include "tournament/results.hpp"

namespace unit_tournament_report_test {

using parley::outcomes::point;
using parley::tournament::negotiation_result;
using parley::tournament::offer_point;
using parley::tournament::role;
using parley::tournament::scenario_summary;
using parley::tournament::strategy_score;
using parley::tournament::tournament_results;
using parley::tournament::write_report;

namespace {

/// Returns the report of `r` as a string.
std::string report_of(const tournament_results& r) {
  std::ostringstream out;
  write_report(r, out);
  return out.str();
}

/// Returns a negotiation of scenario 0 between `buyer` and `seller` with these
/// advantages.
negotiation_result played(std::size_t index, std::size_t buyer, std::size_t seller,
                          point advantages, bool agreement) {
  negotiation_result n;
  n.index = index;
  n.buyer_strategy = buyer;
  n.seller_strategy = seller;
  n.agreement = agreement;
  n.status = agreement ? "accepted" : "expired";
  n.rounds = 4;
  n.score.utilities = agreement ? point{0.5, 0.5} : point{0.0, 0.0};
  n.score.advantages = advantages;
  return n;
}

/// Two strategies, A and B, one scenario with three outcomes on the line
/// u1 + u2 = 1, and four negotiations with known advantages.
tournament_results tiny_tournament() {
  tournament_results r;
  r.strategies = {"A", "B"};
  scenario_summary s;
  s.name = "line";
  s.outcomes = {{1.0, 0.0}, {0.5, 0.5}, {0.0, 1.0}};
  s.frontier = {0, 1, 2};
  s.nash = {1};
  s.kalai_smorodinsky = {1};
  s.egalitarian = {1};
  s.max_welfare = {0, 1, 2};
  s.opposition = 0.7071;
  r.scenarios = {s};
  r.negotiations = {
      played(0, 0, 1, {0.5, 0.5}, true),  // A buys from B: A gets 0.5, B 0.5
      played(1, 1, 0, {0.2, 0.8}, true),  // B buys from A: B gets 0.2, A 0.8
      played(2, 0, 1, {0.0, 0.0}, false), // A buys from B: no agreement
      played(3, 0, 0, {0.3, 0.6}, true),  // A against itself: 0.3 and 0.6
  };
  r.negotiations[1].trace = {
      {role::buyer, {0.9, 0.1}}, {role::seller, {0.3, 0.7}}, {role::buyer, {0.5, 0.5}}};
  strategy_score a;
  a.strategy = "A";
  a.count = 5;
  strategy_score b;
  b.strategy = "B";
  b.count = 3;
  r.scores = {a, b};
  r.seed = 7;
  return r;
}

/// A deterministic pseudo-random number in [0, 1).
double next_unit(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<double>(state >> 11) / 9007199254740992.0;
}

/// 10 strategies × 10 scenarios of 2,000 outcomes × 100 repetitions × both
/// openers: 200,000 negotiations, agreements spread over every outcome (the
/// most distinct landing points), traces for repetition 0 only.
tournament_results large_tournament() {
  std::uint64_t state = 42;
  tournament_results r;
  r.seed = 42;
  for (std::size_t i = 0; i < 10; ++i)
    r.strategies.push_back("strategy " + std::to_string(i));
  for (std::size_t k = 0; k < 10; ++k) {
    scenario_summary s;
    s.name = "scenario " + std::to_string(k);
    for (std::size_t o = 0; o < 2000; ++o) {
      const auto u1 = next_unit(state);
      s.outcomes.push_back({u1, (1.0 - u1) * next_unit(state)});
    }
    s.reservation = {0.2, 0.1};
    s.frontier = parley::outcomes::pareto_frontier(
        s.outcomes, parley::outcomes::rational_outcomes(s.outcomes, s.reservation));
    s.nash = {s.frontier.front()};
    s.kalai_smorodinsky = {s.frontier.back()};
    s.egalitarian = {s.frontier[s.frontier.size() / 2]};
    s.max_welfare = {s.frontier.front()};
    s.opposition = 0.5;
    r.scenarios.push_back(s);
  }
  std::size_t index = 0;
  for (std::size_t k = 0; k < 10; ++k)
    for (std::size_t rep = 0; rep < 100; ++rep)
      for (std::size_t buyer = 0; buyer < 10; ++buyer)
        for (std::size_t seller = 0; seller < 10; ++seller)
          for (auto opener : {role::buyer, role::seller}) {
            negotiation_result n;
            n.index = index++;
            n.scenario = k;
            n.repetition = rep;
            n.buyer_strategy = buyer;
            n.seller_strategy = seller;
            n.opener = opener;
            n.agreement = next_unit(state) < 0.7;
            n.status = n.agreement ? "accepted" : "expired";
            n.rounds = 1 + static_cast<std::int32_t>(next_unit(state) * 40);
            const auto outcome = static_cast<std::size_t>(next_unit(state) * 2000);
            n.score.utilities = r.scenarios[k].outcomes[outcome];
            n.score.advantages = {next_unit(state), next_unit(state)};
            if (rep == 0)
              for (std::int32_t t = 0; t < n.rounds; ++t)
                n.trace.push_back({t % 2 == 0 ? opener : role::seller,
                                   {next_unit(state), next_unit(state)}});
            r.negotiations.push_back(std::move(n));
          }
  for (const auto& name : r.strategies) {
    strategy_score s;
    s.strategy = name;
    s.count = 40000;
    r.scores.push_back(s);
  }
  return r;
}

} // namespace

TEST_CASE("the report is one self-contained HTML page", "[unit][tournament]") {
  const auto page = report_of(tiny_tournament());
  CHECK(page.rfind("<!doctype html>", 0) == 0);
  CHECK(page.find("<meta charset=\"utf-8\">") != std::string::npos);
  CHECK(page.find("<title>") != std::string::npos);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("http://") == std::string::npos);
  CHECK(page.find("https://") == std::string::npos);
  CHECK(page.find("</html>") != std::string::npos);
}

TEST_CASE("the report's sections come in order", "[unit][tournament]") {
  const auto page = report_of(tiny_tournament());
  const auto header = page.find("Parley tournament</h1>");
  const auto scores = page.find("id=\"scores\"");
  const auto payoff = page.find("id=\"payoff\"");
  const auto agreement = page.find("id=\"agreement\"");
  const auto scenarios = page.find("id=\"scenarios\"");
  const auto traces = page.find("id=\"traces\"");
  REQUIRE(traces != std::string::npos);
  CHECK(header < scores);
  CHECK(scores < payoff);
  CHECK(payoff < agreement);
  CHECK(agreement < scenarios);
  CHECK(scenarios < traces);
  CHECK(page.find("2 strategies · 1 scenario · 4 negotiations · seed 7") !=
        std::string::npos);
  // 3 of the 4 negotiations reached an agreement.
  CHECK(page.find("agreement rate <strong>75.0%</strong>") != std::string::npos);
}

TEST_CASE("the report escapes names", "[unit][tournament]") {
  auto r = tiny_tournament();
  r.strategies[0] = "<b>&\"x";
  r.scores[0].strategy = "<b>&\"x";
  r.scenarios[0].name = "<i>'s";
  const auto page = report_of(r);
  CHECK(page.find("&lt;b&gt;&amp;&quot;x") != std::string::npos);
  CHECK(page.find("&lt;i&gt;&#39;s") != std::string::npos);
  CHECK(page.find("<b>&\"x") == std::string::npos);
  CHECK(page.find("<i>'s") == std::string::npos);
}

TEST_CASE("the payoff heatmap shows each pairing's mean advantage",
          "[unit][tournament]") {
  const auto page = report_of(tiny_tournament());
  // A against B: 0.5 as buyer (0), 0.8 as seller (1), 0 as buyer (2); 1.3 / 3.
  CHECK(page.find("title=\"A vs B: 0.433 (mean advantage of A over 3 "
                  "negotiations)\">0.43</td>") != std::string::npos);
  // B against A: 0.5 as seller (0), 0.2 as buyer (1), 0 as seller (2); 0.7 / 3.
  CHECK(page.find("title=\"B vs A: 0.233 (mean advantage of B over 3 "
                  "negotiations)\">0.23</td>") != std::string::npos);
  // A against itself: 0.3 as buyer, 0.6 as seller.
  CHECK(page.find("title=\"A vs A: 0.450 (mean advantage of A over 2 "
                  "negotiations)\">0.45</td>") != std::string::npos);
  // B never met B.
  CHECK(page.find("title=\"B vs B: no negotiations\">–</td>") != std::string::npos);
  // Two of A's three negotiations against B reached an agreement.
  CHECK(page.find("title=\"A vs B: 66.7% agreements (2 of 3 negotiations)\">67%") !=
        std::string::npos);
}

TEST_CASE("the report draws the scenario and the trace", "[unit][tournament]") {
  const auto page = report_of(tiny_tournament());
  CHECK(page.find("3 outcomes · frontier 3 · opposition 0.707 · 3 agreements of 4 "
                  "negotiations") != std::string::npos);
  // All three agreements landed on (0.5, 0.5).
  CHECK(page.find("<title>3 agreements at (0.500, 0.500)</title>") !=
        std::string::npos);
  CHECK(page.find("buyer <b>B</b> vs seller <b>A</b>: accepted after 4 rounds") !=
        std::string::npos);
}

TEST_CASE("the report samples a long trace, keeping its last offer",
          "[unit][tournament]") {
  auto r = tiny_tournament();
  auto& trace = r.negotiations[1].trace;
  trace.clear();
  for (std::size_t i = 0; i < 1000; ++i)
    trace.push_back({i % 2 == 0 ? role::buyer : role::seller, {0.5, 0.5}});
  const auto page = report_of(r);
  CHECK(page.find("(100 of 1,000 offers drawn)") != std::string::npos);
  // The x axis runs to the last offer.
  CHECK(page.find(">1,000</text>") != std::string::npos);
}

TEST_CASE("the report is deterministic", "[unit][tournament]") {
  const auto r = tiny_tournament();
  CHECK(report_of(r) == report_of(r));
}

TEST_CASE("the report of 200,000 negotiations stays under 2 MB", "[unit][tournament]") {
  const auto r = large_tournament();
  const auto page = report_of(r);
  CHECK(page.size() < 2000000);
  CHECK(page == report_of(r));
}

TEST_CASE("the report of nothing is still a page", "[unit][tournament]") {
  const auto page = report_of(tournament_results{});
  CHECK(page.rfind("<!doctype html>", 0) == 0);
  CHECK(page.find("</html>") != std::string::npos);
  CHECK(page.find("agreement rate <strong>–</strong>") != std::string::npos);
}

TEST_CASE("the report survives empty scenarios and bad indices", "[unit][tournament]") {
  auto r = tiny_tournament();
  r.scenarios.push_back(scenario_summary{}); // no outcomes
  scenario_summary no_frontier;
  no_frontier.outcomes = {{0.1, 0.1}};
  no_frontier.nash = {5}; // out of range
  r.scenarios.push_back(no_frontier);
  auto stray = r.negotiations.front();
  stray.scenario = 9;
  stray.buyer_strategy = 7;
  r.negotiations.push_back(stray);
  const auto page = report_of(r);
  CHECK(page.find("No outcomes: nothing to plot.") != std::string::npos);
  CHECK(page.find("No rational outcome: no Pareto frontier.") != std::string::npos);
  CHECK(page.find("No traces recorded.") != std::string::npos);
}

} // namespace unit_tournament_report_test
