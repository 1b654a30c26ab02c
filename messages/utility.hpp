#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"

#include "messages/fields.hpp"

namespace parley::messages {

/// The amount as an issue: the values `min` (at least 1), `min + step`, ...
/// up to `max`, in minor units (docs/outcomes.md, "Domains in Parley").
struct amount_issue {
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::int64_t step = 1;

  friend bool operator==(const amount_issue& x, const amount_issue& y) {
    return x.min == y.min && x.max == y.max && x.step == y.step;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, amount_issue& x) {
  return f(caf::meta::type_name("amount_issue"), field("min", x.min),
           field("max", x.max), optional_field("step", x.step));
}

/// One named term of a proposal's `terms` object, e.g. `deadline_days`, and
/// the values it may take, each kept as compact JSON text (`14`,
/// `"express"`). Its JSON mapping is written by hand: the values are JSON
/// scalars there, not strings.
struct term_issue {
  std::string name;
  std::vector<std::string> values;

  friend bool operator==(const term_issue& x, const term_issue& y) {
    return x.name == y.name && x.values == y.values;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, term_issue& x) {
  return f(caf::meta::type_name("term_issue"), field("name", x.name),
           field("values", x.values));
}

/// What a negotiation is about, as a finite set of outcomes: the amount,
/// whether escrow is used (when `escrow` is true; otherwise it is no issue)
/// and named terms (docs/outcomes.md, "Domains in Parley").
struct outcome_domain {
  amount_issue amount;
  bool escrow = false;
  std::vector<term_issue> terms;

  friend bool operator==(const outcome_domain& x, const outcome_domain& y) {
    return x.amount == y.amount && x.escrow == y.escrow && x.terms == y.terms;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, outcome_domain& x) {
  return f(caf::meta::type_name("outcome_domain"), field("amount", x.amount),
           optional_field("escrow", x.escrow), optional_field("terms", x.terms));
}

/// An agent's linear additive utility over a domain (docs/outcomes.md,
/// "Domains in Parley"): per issue ("amount", "escrow" or a term's name) a
/// weight and the value of each of the issue's values in [0, 1], and the
/// utility of no agreement. Issues without a weight weigh 0; without any
/// weight the amount weighs 1. The amount's values, unless listed, rise
/// linearly for a seller and fall for a buyer; escrow's values are for
/// "without" and "with", and default to 1 for both.
struct utility_spec {
  outcome_domain domain;
  std::map<std::string, double> weights;
  std::map<std::string, std::vector<double>> values;
  double reservation = 0.0;

  friend bool operator==(const utility_spec& x, const utility_spec& y) {
    return x.domain == y.domain && x.weights == y.weights && x.values == y.values &&
           x.reservation == y.reservation;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, utility_spec& x) {
  return f(caf::meta::type_name("utility_spec"), field("domain", x.domain),
           optional_field("weights", x.weights), optional_field("values", x.values),
           optional_field("reservation", x.reservation));
}

/// The most values the amount issue may have.
inline constexpr std::int64_t max_amount_values = 10'000;

/// The most outcomes a domain may have: a strategy brain ranks them all.
inline constexpr std::uint64_t max_domain_outcomes = 100'000;

/// Returns the number of outcomes of `x` (saturating past
/// `max_domain_outcomes`).
std::uint64_t outcome_count(const outcome_domain& x);

/// Returns an empty string if `x` is a valid domain, otherwise what is wrong,
/// starting with the field's name (e.g. "amount.step must be positive").
std::string validate(const outcome_domain& x);

/// Returns an empty string if `x` is a valid utility, otherwise what is
/// wrong, starting with the field's name.
std::string validate(const utility_spec& x);

} // namespace parley::messages
