#include "actors/agent/amount_preference.hpp"

#include <algorithm>
#include <cmath>

#include "actors/agent/rule_brain.hpp"

namespace parley::actors::agent {

using messages::bargaining_side;

amount_range range_for(const messages::agent_preferences& p, bargaining_side side) {
  amount_range r;
  r.reservation = messages::reservation_limit(p, side);
  if (side == bargaining_side::seller) {
    r.best = std::max(p.max_auto_approve_amount, r.reservation);
  } else {
    r.best = std::min(std::max<std::int64_t>(p.max_auto_approve_amount / 10, 1),
                      r.reservation);
  }
  return r;
}

double utility_of(const amount_range& range, std::int64_t amount) {
  if (range.best == range.reservation)
    return 1.0;
  auto u = static_cast<double>(amount - range.reservation) /
           static_cast<double>(range.best - range.reservation);
  return std::clamp(u, 0.0, 1.0);
}

std::int64_t amount_of(const amount_range& range, double u) {
  auto span = static_cast<double>(range.best - range.reservation);
  auto offset = span * std::clamp(u, 0.0, 1.0);
  // Toward the best: up for a seller (best above), down for a buyer; a
  // millionth of a minor unit absorbs the error of 0.8 · 90000 and the like.
  auto rounded = span >= 0 ? std::ceil(offset - 1e-6) : std::floor(offset + 1e-6);
  auto amount = range.reservation + static_cast<std::int64_t>(rounded);
  return std::clamp(amount, std::min(range.best, range.reservation),
                    std::max(range.best, range.reservation));
}

amount_preference::amount_preference(const messages::agent_preferences& p,
                                     bargaining_side side)
    : preferences_(p), side_(side), range_(range_for(p, side)) {}

double amount_preference::utility(const messages::proposal& offer) const {
  return utility_of(range_, offer.amount);
}

std::optional<std::string>
amount_preference::broken(const messages::proposal& offer) const {
  return broken_rule(preferences_, side_, offer);
}

messages::proposal amount_preference::offer_at(double target,
                                               const messages::proposal& theirs) const {
  auto offer = theirs;
  offer.amount = amount_of(range_, target);
  offer.escrow = messages::escrow_required(preferences_, offer.amount);
  return offer;
}

std::pair<messages::proposal, double>
amount_preference::ranked(std::size_t k, const messages::proposal& theirs) const {
  k = std::min(k, rank_count() - 1);
  auto target = 1.0 - static_cast<double>(k) / static_cast<double>(rank_count() - 1);
  auto offer = offer_at(target, theirs);
  return {offer, utility(offer)};
}

} // namespace parley::actors::agent
