#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/fields.hpp"

namespace parley::messages {

/// One value for each party of a negotiation.
struct utility_pair {
  double initiator = 0.0;
  double responder = 0.0;

  friend bool operator==(const utility_pair& x, const utility_pair& y) {
    return x.initiator == y.initiator && x.responder == y.responder;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, utility_pair& x) {
  return f(caf::meta::type_name("utility_pair"), field("initiator", x.initiator),
           field("responder", x.responder));
}

/// One offer of a negotiation in utility space: the proposal of a propose or
/// counter round, valued by both parties.
struct offer_utilities {
  std::int32_t round = 0;
  std::string from_agent;
  double initiator = 0.0;
  double responder = 0.0;

  friend bool operator==(const offer_utilities& x, const offer_utilities& y) {
    return x.round == y.round && x.from_agent == y.from_agent &&
           x.initiator == y.initiator && x.responder == y.responder;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, offer_utilities& x) {
  return f(caf::meta::type_name("offer_utilities"), field("round", x.round),
           field("from_agent", x.from_agent), field("initiator", x.initiator),
           field("responder", x.responder));
}

/// How good the end of a negotiation was, by its parties' utilities over
/// their shared domain (docs/outcomes.md, "Scores of live negotiations"):
/// an agreement at its outcome, any other end at the reservation values.
struct deal_score {
  utility_pair utilities;
  /// (u - r) / (max - r) per party, max its best utility over the domain;
  /// 0 without an agreement.
  utility_pair advantages;
  utility_pair reservation;
  double welfare = 0.0;
  double nash_product = 0.0;
  /// The Nash point and the distances in utility space to the Pareto
  /// frontier and the bargaining solutions: none when no outcome is rational
  /// for both parties.
  caf::optional<utility_pair> nash_point;
  caf::optional<double> pareto_distance;
  caf::optional<double> nash_distance;
  caf::optional<double> kalai_smorodinsky_distance;
  caf::optional<double> max_welfare_distance;
  /// Every offer, in round order: the concession chart.
  std::vector<offer_utilities> offers;

  friend bool operator==(const deal_score& x, const deal_score& y) {
    return x.utilities == y.utilities && x.advantages == y.advantages &&
           x.reservation == y.reservation && x.welfare == y.welfare &&
           x.nash_product == y.nash_product && x.nash_point == y.nash_point &&
           x.pareto_distance == y.pareto_distance &&
           x.nash_distance == y.nash_distance &&
           x.kalai_smorodinsky_distance == y.kalai_smorodinsky_distance &&
           x.max_welfare_distance == y.max_welfare_distance && x.offers == y.offers;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, deal_score& x) {
  return f(caf::meta::type_name("deal_score"), field("utilities", x.utilities),
           field("advantages", x.advantages), field("reservation", x.reservation),
           field("welfare", x.welfare), field("nash_product", x.nash_product),
           omittable_field("nash_point", x.nash_point),
           omittable_field("pareto_distance", x.pareto_distance),
           omittable_field("nash_distance", x.nash_distance),
           omittable_field("kalai_smorodinsky_distance", x.kalai_smorodinsky_distance),
           omittable_field("max_welfare_distance", x.max_welfare_distance),
           field("offers", x.offers));
}

} // namespace parley::messages
