#include "messages/utility.hpp"

#include <cmath>
#include <set>

namespace parley::messages {

namespace {

/// The number of values of the amount issue, or 0 when it is invalid.
std::int64_t amount_value_count(const amount_issue& x) {
  if (x.step <= 0 || x.min < 1 || x.max < x.min)
    return 0;
  return (x.max - x.min) / x.step + 1;
}

/// The number of values of issue `name` of `d`, or -1 when there is none.
std::int64_t issue_size(const outcome_domain& d, const std::string& name) {
  if (name == "amount")
    return amount_value_count(d.amount);
  if (name == "escrow")
    return d.escrow ? 2 : -1;
  for (const auto& t : d.terms)
    if (t.name == name)
      return static_cast<std::int64_t>(t.values.size());
  return -1;
}

bool in_unit_interval(double x) {
  return std::isfinite(x) && x >= 0.0 && x <= 1.0;
}

} // namespace

std::uint64_t outcome_count(const outcome_domain& x) {
  auto count = static_cast<std::uint64_t>(amount_value_count(x.amount));
  if (x.escrow)
    count *= 2;
  for (const auto& t : x.terms) {
    count *= t.values.size();
    if (count > max_domain_outcomes)
      return max_domain_outcomes + 1;
  }
  return count;
}

std::string validate(const outcome_domain& x) {
  if (x.amount.min < 1)
    return "amount.min must be positive (a proposal's amount is)";
  if (x.amount.max < x.amount.min)
    return "amount.max must not be below amount.min";
  if (x.amount.step <= 0)
    return "amount.step must be positive";
  if (amount_value_count(x.amount) > max_amount_values)
    return "amount has " + std::to_string(amount_value_count(x.amount)) +
           " values; at most " + std::to_string(max_amount_values) +
           " (use a larger step)";
  std::set<std::string> names{"amount", "escrow"};
  for (const auto& t : x.terms) {
    if (t.name.empty())
      return "terms: a term needs a name";
    if (!names.insert(t.name).second)
      return "terms." + t.name + " is named twice (or is \"amount\" or \"escrow\")";
    if (t.values.empty())
      return "terms." + t.name + " needs at least one value";
    if (std::set<std::string>(t.values.begin(), t.values.end()).size() !=
        t.values.size())
      return "terms." + t.name + " lists a value twice";
  }
  if (outcome_count(x) > max_domain_outcomes)
    return "the domain has more than " + std::to_string(max_domain_outcomes) +
           " outcomes";
  return {};
}

std::string validate(const utility_spec& x) {
  if (auto why = validate(x.domain); !why.empty())
    return "domain." + why;
  double sum = 0.0;
  for (const auto& [name, w] : x.weights) {
    if (issue_size(x.domain, name) < 0)
      return "weights." + name + " names no issue of the domain";
    if (!std::isfinite(w) || w < 0.0)
      return "weights." + name + " must be finite and >= 0";
    sum += w;
  }
  if (!x.weights.empty() && sum <= 0.0)
    return "weights must not all be 0";
  for (const auto& [name, values] : x.values) {
    auto size = issue_size(x.domain, name);
    if (size < 0)
      return "values." + name + " names no issue of the domain";
    if (static_cast<std::int64_t>(values.size()) != size)
      return "values." + name + " has " + std::to_string(values.size()) +
             " values; the issue has " + std::to_string(size);
    for (auto v : values)
      if (!in_unit_interval(v))
        return "values." + name + " must be within 0..1";
  }
  if (!in_unit_interval(x.reservation))
    return "reservation must be within 0..1";
  return {};
}

} // namespace parley::messages
