#include "actors/agent/strategy_brain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "actors/agent/money.hpp"
#include "actors/agent/rule_brain.hpp"

namespace parley::actors::agent {

using messages::bargaining_side;
using messages::reply_action;
using messages::strategy_kind;

namespace {

/// "0.75": a utility with two decimals.
std::string two_decimals(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", x);
  return text;
}

} // namespace

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

double target_utility(strategy_kind kind, double t) {
  t = std::clamp(t, 0.0, 1.0);
  switch (kind) {
  case strategy_kind::boulware:
    return 1.0 - std::pow(t, 1.0 / 0.2);
  case strategy_kind::conceder:
    return 1.0 - std::pow(t, 1.0 / 5.0);
  case strategy_kind::hardliner:
    return 1.0;
  case strategy_kind::linear:
  case strategy_kind::random:
    break;
  }
  return 1.0 - t;
}

strategy_brain::strategy_brain(strategy_kind kind, bargaining_side side,
                               const messages::agent_profile& profile,
                               std::uint64_t seed)
    : kind_(kind), side_(resolve_side(side, profile.role)), profile_(profile),
      range_(range_for(profile.preferences, side_)), random_(seed) {}

double strategy_brain::target(double t) {
  if (kind_ != strategy_kind::random)
    return target_utility(kind_, t);
  // 53 random bits as a double in [0, 1): the same on every standard library.
  return static_cast<double>(random_() >> 11) * 0x1.0p-53;
}

std::optional<messages::decision> strategy_brain::decide(const offer_context& offer) {
  const auto& p = profile_.preferences;
  const auto& in = offer.incoming;
  auto money = [&](std::int64_t x) {
    return format_amount(x, p.preferred_currency);
  };
  if (in.currency != p.preferred_currency)
    return decision_of(reply_action::reject, "Only " + p.preferred_currency +
                                                 " is accepted, got " + in.currency);
  auto rounds = std::max(offer.max_rounds, 1);
  auto t = static_cast<double>(std::min(offer.round, rounds)) / rounds;
  auto aim = target(t);
  auto name = messages::to_string(kind_);
  auto u = utility_of(range_, in.amount);
  auto broken = broken_rule(p, side_, in);
  if (!broken && u >= aim)
    return decision_of(reply_action::accept,
                       "Accepting " + money(in.amount) + ": " + name +
                           " strategy, utility " + two_decimals(u) +
                           " meets my target of " + two_decimals(aim));
  if (offer.round >= offer.max_rounds)
    return decision_of(reply_action::reject,
                       broken ? *broken
                              : name + " strategy: utility " + two_decimals(u) +
                                    " is below my target of " + two_decimals(aim));
  auto counter = in;
  counter.amount = amount_of(range_, aim);
  counter.escrow = messages::escrow_required(p, counter.amount);
  auto result = decision_of(reply_action::counter,
                            "Countering at " + money(counter.amount) + ": " + name +
                                " strategy, target utility " + two_decimals(aim) +
                                " in round " + std::to_string(offer.round) + " of " +
                                std::to_string(offer.max_rounds));
  result.proposal = std::move(counter);
  return result;
}

} // namespace parley::actors::agent
