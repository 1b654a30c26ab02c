#include "actors/negotiation/scoring.hpp"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "outcomes/scores.hpp"

namespace parley::actors::negotiation {

using messages::bargaining_side;
using messages::party_valuation;

namespace {

/// The valuation's utility over the amount by its side, checked first.
agent::domain_space space_of(const party_valuation& x) {
  if (x.side != bargaining_side::buyer && x.side != bargaining_side::seller)
    throw std::invalid_argument("a valuation is for a buyer or a seller");
  return agent::domain_space{x.utility, x.side};
}

outcomes::bilateral_analysis analysis_of(const agent::domain_space& initiator,
                                         const agent::domain_space& responder,
                                         outcomes::point reservation) {
  auto first = initiator.utilities();
  auto second = responder.utilities();
  std::vector<outcomes::point> points;
  points.reserve(first.size());
  for (std::size_t i = 0; i < first.size(); ++i)
    points.push_back({first[i], second[i]});
  return outcomes::analyse(std::move(points), reservation);
}

messages::utility_pair pair_of(outcomes::point x) {
  return {x.first, x.second};
}

caf::optional<double> distance_of(const std::optional<outcomes::proximity>& x) {
  if (!x)
    return caf::none;
  return x->distance;
}

/// How many pairs of valuations the memo keeps.
constexpr std::size_t memo_size = 64;

struct memo_entry {
  messages::shared<party_valuation> initiator;
  messages::shared<party_valuation> responder;
  std::shared_ptr<const deal_scorer> scorer;
};

std::mutex memo_mutex;
std::deque<memo_entry> memo;

/// The memo's scorer for this pair, or null; the caller holds memo_mutex.
std::shared_ptr<const deal_scorer>
remembered(const messages::shared<party_valuation>& initiator,
           const messages::shared<party_valuation>& responder) {
  auto i = std::find_if(memo.begin(), memo.end(), [&](const memo_entry& e) {
    return e.initiator == initiator && e.responder == responder;
  });
  return i != memo.end() ? i->scorer : nullptr;
}

} // namespace

deal_scorer::deal_scorer(const party_valuation& initiator,
                         const party_valuation& responder)
    : initiator_(space_of(initiator)), responder_(space_of(responder)) {
  if (!(initiator.utility.domain == responder.utility.domain))
    throw std::invalid_argument("the parties value different domains");
  analysis_ =
      analysis_of(initiator_, responder_,
                  {initiator.utility.reservation, responder.utility.reservation});
}

messages::deal_score deal_scorer::score(const messages::negotiation_record& x) const {
  auto value = [this](const messages::proposal& p) {
    return outcomes::point{initiator_.utility(p), responder_.utility(p)};
  };
  auto agreed = x.status == messages::negotiation_status::accepted;
  auto s = agreed ? outcomes::score_point(analysis_,
                                          value(x.final_proposal ? *x.final_proposal
                                                                 : x.current_proposal))
                  : outcomes::score_no_agreement(analysis_);
  messages::deal_score result;
  result.utilities = pair_of(s.utilities);
  result.advantages = pair_of(s.advantages);
  result.reservation = pair_of(analysis_.reservation);
  result.welfare = s.welfare;
  result.nash_product = s.nash_product;
  if (!analysis_.nash.empty())
    result.nash_point = pair_of(analysis_.utilities[analysis_.nash.front()]);
  result.pareto_distance = distance_of(s.pareto);
  result.nash_distance = distance_of(s.nash);
  result.kalai_smorodinsky_distance = distance_of(s.kalai_smorodinsky);
  result.max_welfare_distance = distance_of(s.max_welfare);
  for (const auto& r : x.rounds) {
    if (r.action != messages::round_action::propose &&
        r.action != messages::round_action::counter)
      continue;
    auto u = value(r.proposal);
    result.offers.push_back({r.round, r.from_agent, u.first, u.second});
  }
  return result;
}

std::shared_ptr<const deal_scorer>
scorer_for(const messages::shared<party_valuation>& initiator,
           const messages::shared<party_valuation>& responder) {
  if (!initiator || !responder ||
      !(initiator->utility.domain == responder->utility.domain))
    return nullptr;
  {
    std::lock_guard<std::mutex> guard{memo_mutex};
    if (auto known = remembered(initiator, responder))
      return known;
  }
  // Made outside the lock: another negotiation may make the same meanwhile,
  // and the memo keeps the first.
  std::shared_ptr<const deal_scorer> made;
  try {
    made = std::make_shared<const deal_scorer>(*initiator, *responder);
  } catch (const std::invalid_argument&) {
    return nullptr; // a valuation the API let through but outcomes refuses
  }
  std::lock_guard<std::mutex> guard{memo_mutex};
  if (auto known = remembered(initiator, responder))
    return known;
  memo.push_back({initiator, responder, made});
  if (memo.size() > memo_size)
    memo.pop_front();
  return made;
}

} // namespace parley::actors::negotiation
