#pragma once

// What a tournament produced (docs/tournament.md): the input of its tables and
// its report. The standard library and outcomes/ only.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "outcomes/point.hpp"
#include "outcomes/scores.hpp"

namespace parley::tournament {

/// Which side a party bargains on. In utility space the buyer is the first
/// party (`point::first`) and the seller the second.
enum class role : std::uint8_t { buyer, seller };

/// One offer (the opening proposal or a counter) in utility space.
struct offer_point {
  /// Who made it.
  tournament::role by = role::buyer;
  /// Its utility for the buyer (first) and the seller (second).
  outcomes::point utilities;
};

/// One negotiation of the tournament.
struct negotiation_result {
  /// Its position in the tournament's order (docs/tournament.md, "Order").
  std::size_t index = 0;
  /// Indices into `tournament_results::scenarios` and `::strategies`.
  std::size_t scenario = 0;
  std::size_t repetition = 0;
  std::size_t buyer_strategy = 0;
  std::size_t seller_strategy = 0;
  /// Who made the opening proposal.
  role opener = role::buyer;
  /// "accepted", "rejected" or "expired".
  std::string status;
  bool agreement = false;
  /// Rounds played, the opening proposal included.
  std::int32_t rounds = 0;
  /// rounds / the scenario's round limit.
  double relative_time = 0.0;
  /// The reservation values this negotiation ran with (after the noise):
  /// the buyer's first, the seller's second.
  outcomes::point reservation;
  /// Utilities (buyer first), advantages, welfare, Nash product, distances.
  outcomes::agreement_score score;
  /// Every offer in order; kept for repetition 0 only (the report's
  /// concession traces), empty otherwise.
  std::vector<offer_point> trace;
};

/// One scenario's outcome space, with the reservation values it states
/// (before any noise).
struct scenario_summary {
  std::string name;
  /// Every outcome's utilities (buyer first), in the domain's order.
  std::vector<outcomes::point> outcomes;
  outcomes::point reservation;
  /// Indices into `outcomes`: the Pareto frontier of the rational outcomes
  /// and each bargaining solution (outcomes/frontier.hpp).
  std::vector<std::size_t> frontier;
  std::vector<std::size_t> nash;
  std::vector<std::size_t> kalai_smorodinsky;
  std::vector<std::size_t> egalitarian;
  std::vector<std::size_t> max_welfare;
  double opposition = 0.0;
};

/// Mean, median and (population) standard deviation of some values.
struct summary_statistics {
  double mean = 0.0;
  double median = 0.0;
  double std_dev = 0.0;
};

/// One strategy's scores over every negotiation it played, in either role.
struct strategy_score {
  std::string strategy;
  /// Negotiations played (each counts once per role the strategy took:
  /// a strategy against itself counts twice).
  std::size_t count = 0;
  std::size_t agreements = 0;
  double agreement_rate = 0.0;
  summary_statistics advantage;
  summary_statistics utility;
  /// Means over the same negotiations.
  double welfare = 0.0;
  double pareto_distance = 0.0;
  double nash_distance = 0.0;
  double kalai_smorodinsky_distance = 0.0;
  double max_welfare_distance = 0.0;
  double rounds = 0.0;
};

/// Everything a tournament produced.
struct tournament_results {
  std::vector<std::string> strategies;
  std::vector<scenario_summary> scenarios;
  /// In index order.
  std::vector<negotiation_result> negotiations;
  /// One per strategy, in the order of `strategies`.
  std::vector<strategy_score> scores;
  std::uint64_t seed = 0;
};

} // namespace parley::tournament
