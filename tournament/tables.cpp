#include "tournament/tables.hpp"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <optional>
#include <ostream>
#include <string>

namespace parley::tournament {

namespace {

/// A number as the CSV files write it: six decimals, the same on every
/// machine and locale (std::to_chars: no locale, and several times faster
/// than printf, which took a tenth of a large tournament's time).
std::string csv_number(double x) {
  char text[64];
  auto end = std::to_chars(text, text + sizeof text, x, std::chars_format::fixed, 6);
  return std::string(text, end.ptr);
}

/// A name as a CSV field: quoted when it holds a comma, a quote or a line
/// break (RFC 4180).
std::string csv_text(const std::string& x) {
  if (x.find_first_of(",\"\r\n") == std::string::npos)
    return x;
  std::string quoted = "\"";
  for (auto c : x) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string distance_cell(const std::optional<outcomes::proximity>& x) {
  return x ? csv_number(x->distance) : std::string{};
}

std::string optimality_cell(const std::optional<outcomes::proximity>& x) {
  return x ? csv_number(x->optimality) : std::string{};
}

const char* role_name(role x) {
  return x == role::buyer ? "buyer" : "seller";
}

summary_statistics statistics_of(std::vector<double> xs) {
  summary_statistics s;
  if (xs.empty())
    return s;
  double sum = 0.0;
  for (auto x : xs)
    sum += x;
  s.mean = sum / static_cast<double>(xs.size());
  double squares = 0.0;
  for (auto x : xs)
    squares += (x - s.mean) * (x - s.mean);
  s.std_dev = std::sqrt(squares / static_cast<double>(xs.size()));
  std::sort(xs.begin(), xs.end());
  auto n = xs.size();
  s.median = n % 2 == 1 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2.0;
  return s;
}

/// Sums of one strategy's results, in either role.
struct strategy_tally {
  std::vector<double> advantages;
  std::vector<double> utilities;
  double welfare = 0.0;
  double pareto = 0.0;
  double nash = 0.0;
  double kalai_smorodinsky = 0.0;
  double max_welfare = 0.0;
  double rounds = 0.0;
  std::size_t agreements = 0;
};

void tally(strategy_tally& t, const negotiation_result& n, role side) {
  const auto& s = n.score;
  t.advantages.push_back(side == role::buyer ? s.advantages.first
                                             : s.advantages.second);
  t.utilities.push_back(side == role::buyer ? s.utilities.first : s.utilities.second);
  t.welfare += s.welfare;
  t.pareto += s.pareto ? s.pareto->distance : 0.0;
  t.nash += s.nash ? s.nash->distance : 0.0;
  t.kalai_smorodinsky += s.kalai_smorodinsky ? s.kalai_smorodinsky->distance : 0.0;
  t.max_welfare += s.max_welfare ? s.max_welfare->distance : 0.0;
  t.rounds += n.rounds;
  t.agreements += n.agreement ? 1 : 0;
}

} // namespace

std::vector<strategy_score> compute_scores(const tournament_results& r) {
  std::vector<strategy_tally> tallies(r.strategies.size());
  for (const auto& n : r.negotiations) {
    tally(tallies.at(n.buyer_strategy), n, role::buyer);
    tally(tallies.at(n.seller_strategy), n, role::seller);
  }
  std::vector<strategy_score> scores;
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    auto& t = tallies[i];
    strategy_score s;
    s.strategy = r.strategies[i];
    s.count = t.advantages.size();
    s.agreements = t.agreements;
    if (s.count > 0) {
      auto n = static_cast<double>(s.count);
      s.agreement_rate = static_cast<double>(t.agreements) / n;
      s.welfare = t.welfare / n;
      s.pareto_distance = t.pareto / n;
      s.nash_distance = t.nash / n;
      s.kalai_smorodinsky_distance = t.kalai_smorodinsky / n;
      s.max_welfare_distance = t.max_welfare / n;
      s.rounds = t.rounds / n;
    }
    s.advantage = statistics_of(std::move(t.advantages));
    s.utility = statistics_of(std::move(t.utilities));
    scores.push_back(std::move(s));
  }
  return scores;
}

void write_negotiations_csv(const tournament_results& r, std::ostream& out) {
  out << "index,scenario,repetition,buyer_strategy,seller_strategy,opener,status,"
         "agreement,rounds,relative_time,buyer_reservation,seller_reservation,"
         "buyer_utility,seller_utility,buyer_advantage,seller_advantage,welfare,"
         "nash_product,pareto_distance,nash_distance,kalai_smorodinsky_distance,"
         "max_welfare_distance,pareto_optimality,nash_optimality,"
         "kalai_smorodinsky_optimality,max_welfare_optimality\n";
  for (const auto& n : r.negotiations) {
    const auto& s = n.score;
    out << n.index << ',' << csv_text(r.scenarios.at(n.scenario).name) << ','
        << n.repetition << ',' << csv_text(r.strategies.at(n.buyer_strategy)) << ','
        << csv_text(r.strategies.at(n.seller_strategy)) << ',' << role_name(n.opener)
        << ',' << n.status << ',' << (n.agreement ? 1 : 0) << ',' << n.rounds << ','
        << csv_number(n.relative_time) << ',' << csv_number(n.reservation.first) << ','
        << csv_number(n.reservation.second) << ',' << csv_number(s.utilities.first)
        << ',' << csv_number(s.utilities.second) << ','
        << csv_number(s.advantages.first) << ',' << csv_number(s.advantages.second)
        << ',' << csv_number(s.welfare) << ',' << csv_number(s.nash_product) << ','
        << distance_cell(s.pareto) << ',' << distance_cell(s.nash) << ','
        << distance_cell(s.kalai_smorodinsky) << ',' << distance_cell(s.max_welfare)
        << ',' << optimality_cell(s.pareto) << ',' << optimality_cell(s.nash) << ','
        << optimality_cell(s.kalai_smorodinsky) << ',' << optimality_cell(s.max_welfare)
        << '\n';
  }
}

void write_scores_csv(const tournament_results& r, std::ostream& out) {
  out << "strategy,count,agreements,agreement_rate,advantage_mean,advantage_median,"
         "advantage_std,utility_mean,utility_median,utility_std,welfare_mean,"
         "pareto_distance_mean,nash_distance_mean,kalai_smorodinsky_distance_mean,"
         "max_welfare_distance_mean,rounds_mean\n";
  for (const auto& s : r.scores)
    out << csv_text(s.strategy) << ',' << s.count << ',' << s.agreements << ','
        << csv_number(s.agreement_rate) << ',' << csv_number(s.advantage.mean) << ','
        << csv_number(s.advantage.median) << ',' << csv_number(s.advantage.std_dev)
        << ',' << csv_number(s.utility.mean) << ',' << csv_number(s.utility.median)
        << ',' << csv_number(s.utility.std_dev) << ',' << csv_number(s.welfare) << ','
        << csv_number(s.pareto_distance) << ',' << csv_number(s.nash_distance) << ','
        << csv_number(s.kalai_smorodinsky_distance) << ','
        << csv_number(s.max_welfare_distance) << ',' << csv_number(s.rounds) << '\n';
}

void write_scenarios_csv(const tournament_results& r, std::ostream& out) {
  out << "scenario,outcomes,frontier,opposition,buyer_reservation,seller_reservation,"
         "nash_buyer,nash_seller,kalai_smorodinsky_buyer,kalai_smorodinsky_seller,"
         "egalitarian_buyer,egalitarian_seller,max_welfare_buyer,max_welfare_seller\n";
  for (const auto& s : r.scenarios) {
    // The first of a solution's tied outcomes; empty cells when none.
    auto point_cells = [&](const std::vector<std::size_t>& solution) {
      if (solution.empty())
        return std::string{","};
      auto p = s.outcomes.at(solution.front());
      return csv_number(p.first) + ',' + csv_number(p.second);
    };
    out << csv_text(s.name) << ',' << s.outcomes.size() << ',' << s.frontier.size()
        << ',' << csv_number(s.opposition) << ',' << csv_number(s.reservation.first)
        << ',' << csv_number(s.reservation.second) << ',' << point_cells(s.nash) << ','
        << point_cells(s.kalai_smorodinsky) << ',' << point_cells(s.egalitarian) << ','
        << point_cells(s.max_welfare) << '\n';
  }
}

} // namespace parley::tournament
