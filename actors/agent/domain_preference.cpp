#include "actors/agent/domain_preference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "outcomes/domain.hpp"

namespace parley::actors::agent {

using messages::bargaining_side;

namespace {

constexpr auto no_value = std::numeric_limits<std::size_t>::max();

/// How far above the nearest utility an offer may be and still count as
/// nearly as good, when `offer_at` picks the one most like the other side's.
constexpr double near_enough = 0.02;

/// The most offers `offer_at` compares with the other side's.
constexpr std::size_t most_compared = 64;

/// The outcomes library's domain for `d`: the amount, escrow (when it is an
/// issue), then the terms.
outcomes::domain domain_for_outcomes(const messages::outcome_domain& d) {
  outcomes::domain result;
  const auto& a = d.amount;
  result.issues.push_back(outcomes::numeric_issue("amount", static_cast<double>(a.min),
                                                  static_cast<double>(a.max),
                                                  static_cast<double>(a.step)));
  if (d.escrow)
    result.issues.push_back(outcomes::label_issue("escrow", {"false", "true"}));
  for (const auto& t : d.terms)
    result.issues.push_back(outcomes::label_issue(t.name, t.values));
  return result;
}

/// The weights and values of `spec` over `d`'s issues, with the defaults of
/// messages::utility_spec.
std::pair<std::vector<double>, std::vector<std::vector<double>>>
utility_parts(const messages::utility_spec& spec, const outcomes::domain& d,
              bargaining_side side) {
  std::vector<double> weights;
  std::vector<std::vector<double>> values;
  for (const auto& issue : d.issues) {
    auto w = spec.weights.find(issue.name);
    weights.push_back(w != spec.weights.end() ? w->second : 0.0);
    auto v = spec.values.find(issue.name);
    if (v != spec.values.end())
      values.push_back(v->second);
    else if (issue.name == "amount")
      values.push_back(side == bargaining_side::seller
                           ? outcomes::rising_values(issue.labels.size())
                           : outcomes::falling_values(issue.labels.size()));
    else
      values.emplace_back(issue.labels.size(), 1.0);
  }
  if (spec.weights.empty())
    weights.front() = 1.0;
  return {std::move(weights), std::move(values)};
}

} // namespace

domain_space::domain_space(const messages::utility_spec& spec, bargaining_side side)
    : domain_(spec.domain) {
  if (auto why = messages::validate(spec); !why.empty())
    throw std::invalid_argument(why);
  auto d = domain_for_outcomes(domain_);
  for (const auto& issue : d.issues)
    sizes_.push_back(issue.labels.size());
  auto [weights, values] = utility_parts(spec, d, side);
  utility_ = std::make_unique<outcomes::linear_utility>(
      d, std::move(weights), std::move(values), spec.reservation);
  auto all = outcomes::enumerate_outcomes(d, messages::max_domain_outcomes);
  ranked_.reserve(all.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    ranked_.emplace_back((*utility_)(all[i]), i);
  std::stable_sort(ranked_.begin(), ranked_.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  remember_terms();
}

void domain_space::remember_terms() {
  for (const auto& t : domain_.terms)
    term_keys_.push_back(nlohmann::json(t.name).dump() + ':');
  if (domain_.terms.empty())
    return;
  // Every combination of term values, as proposal_of writes it: the outcomes
  // whose amount (and escrow) index is 0 have each combination once.
  std::size_t combinations = 1;
  for (const auto& t : domain_.terms)
    combinations *= t.values.size();
  messages::proposal blank;
  for (std::size_t c = 0; c < combinations; ++c) {
    auto text = proposal_of(c, blank).terms.text;
    auto values = decode(c);
    known_terms_.emplace(
        std::move(text),
        std::vector<std::size_t>(values.end() -
                                     static_cast<std::ptrdiff_t>(domain_.terms.size()),
                                 values.end()));
  }
}

std::vector<double> domain_space::utilities() const {
  std::vector<double> result(ranked_.size());
  for (const auto& [u, index] : ranked_)
    result[index] = u;
  return result;
}

std::vector<std::size_t> domain_space::decode(std::size_t index) const {
  std::vector<std::size_t> result(sizes_.size());
  for (auto i = sizes_.size(); i-- > 0;) {
    result[i] = index % sizes_[i];
    index /= sizes_[i];
  }
  return result;
}

void domain_space::term_values(const std::string& terms,
                               std::vector<std::size_t>& out) const {
  if (auto known = known_terms_.find(terms); known != known_terms_.end()) {
    out.insert(out.end(), known->second.begin(), known->second.end());
    return;
  }
  auto parsed = nlohmann::json::parse(terms, nullptr, false);
  for (const auto& t : domain_.terms) {
    auto value = no_value;
    if (parsed.is_object()) {
      auto i = parsed.find(t.name);
      if (i != parsed.end()) {
        auto text = i->dump();
        auto at = std::find(t.values.begin(), t.values.end(), text);
        if (at != t.values.end())
          value = static_cast<std::size_t>(at - t.values.begin());
      }
    }
    out.push_back(value);
  }
}

std::vector<std::size_t>
domain_space::issue_values(const messages::proposal& offer) const {
  std::vector<std::size_t> result;
  result.reserve(sizes_.size());
  const auto& a = domain_.amount;
  auto clamped = std::clamp(offer.amount, a.min, a.max);
  result.push_back(static_cast<std::size_t>(std::llround(
      static_cast<double>(clamped - a.min) / static_cast<double>(a.step))));
  result.back() = std::min(result.back(), sizes_.front() - 1);
  if (domain_.escrow)
    result.push_back(offer.escrow ? 1 : 0);
  if (!domain_.terms.empty())
    term_values(offer.terms.text, result);
  return result;
}

double domain_space::utility(const messages::proposal& offer) const {
  auto x = issue_values(offer);
  const auto& weights = utility_->weights();
  const auto& values = utility_->values();
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != no_value)
      sum += weights[i] * values[i][x[i]];
  return std::min(sum, 1.0);
}

messages::proposal domain_space::proposal_of(std::size_t index,
                                             const messages::proposal& base) const {
  auto x = decode(index);
  auto result = base;
  result.amount =
      domain_.amount.min + static_cast<std::int64_t>(x[0]) * domain_.amount.step;
  std::size_t next = 1;
  if (domain_.escrow)
    result.escrow = x[next++] == 1;
  if (!domain_.terms.empty()) {
    // Compact JSON with the keys in the domain's order; the values are kept
    // as their compact text already.
    std::string text = "{";
    for (std::size_t t = 0; t < domain_.terms.size(); ++t) {
      if (t > 0)
        text += ',';
      text += term_keys_[t];
      text += domain_.terms[t].values[x[next++]];
    }
    result.terms.text = text + '}';
  }
  return result;
}

double domain_space::likeness(std::size_t index,
                              const std::vector<std::size_t>& values) const {
  auto mine = decode(index);
  auto amount_values = static_cast<double>(sizes_.front());
  double score =
      1.0 - std::fabs(static_cast<double>(mine[0]) - static_cast<double>(values[0])) /
                amount_values;
  for (std::size_t i = 1; i < mine.size(); ++i)
    if (mine[i] == values[i])
      score += 1.0;
  return score;
}

domain_preference::domain_preference(std::shared_ptr<const domain_space> space,
                                     double reservation)
    : space_(std::move(space)), reservation_(reservation) {}

double domain_preference::utility(const messages::proposal& offer) const {
  return space_->utility(offer);
}

double domain_preference::best() const {
  return space_->ranked().front().first;
}

std::optional<std::string> domain_preference::broken(const messages::proposal&) const {
  return std::nullopt;
}

messages::proposal domain_preference::offer_at(double target,
                                               const messages::proposal& theirs) const {
  const auto& ranked = space_->ranked();
  // The last outcome (best first) still worth the target: the nearest to it.
  auto end = std::partition_point(ranked.begin(), ranked.end(), [&](const auto& x) {
    return x.first >= target - 1e-12;
  });
  auto nearest =
      end == ranked.begin() ? 0 : static_cast<std::size_t>(end - ranked.begin()) - 1;
  auto chosen = nearest;
  auto their_values = space_->issue_values(theirs);
  auto chosen_likeness = space_->likeness(ranked[nearest].second, their_values);
  for (std::size_t k = nearest, compared = 1;
       k-- > 0 && compared < most_compared &&
       ranked[k].first <= ranked[nearest].first + near_enough;
       ++compared) {
    auto l = space_->likeness(ranked[k].second, their_values);
    if (l > chosen_likeness) {
      chosen = k;
      chosen_likeness = l;
    }
  }
  return space_->proposal_of(ranked[chosen].second, theirs);
}

std::pair<messages::proposal, double>
domain_preference::ranked(std::size_t k, const messages::proposal& theirs) const {
  const auto& ranked = space_->ranked();
  k = std::min(k, ranked.size() - 1);
  return {space_->proposal_of(ranked[k].second, theirs), ranked[k].first};
}

} // namespace parley::actors::agent
