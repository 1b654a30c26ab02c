#include "actors/agent/strategy_brain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "actors/agent/domain_preference.hpp"
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

std::shared_ptr<const preference> preference_of(const messages::agent_profile& profile,
                                                bargaining_side side) {
  if (profile.utility)
    return std::make_shared<domain_preference>(
        std::make_shared<domain_space>(*profile.utility, side),
        profile.utility->reservation);
  return std::make_shared<amount_preference>(profile.preferences, side);
}

} // namespace

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
  case strategy_kind::tit_for_tat:
  case strategy_kind::micro:
    break;
  }
  return 1.0 - t;
}

strategy_brain::strategy_brain(strategy_kind kind, bargaining_side side,
                               const messages::agent_profile& profile,
                               std::uint64_t seed)
    : strategy_brain(kind, side, profile, seed,
                     preference_of(profile, resolve_side(side, profile.role))) {}

strategy_brain::strategy_brain(strategy_kind kind, bargaining_side side,
                               const messages::agent_profile& profile,
                               std::uint64_t seed,
                               std::shared_ptr<const preference> preference)
    : kind_(kind), side_(resolve_side(side, profile.role)), profile_(profile),
      preference_(std::move(preference)) {
  if (kind_ == strategy_kind::random)
    random_.emplace(seed);
}

strategy_brain::plan strategy_brain::plan_for(const offer_context& offer,
                                              double incoming_utility) {
  const auto& pref = *preference_;
  auto r = pref.reservation();
  auto best = std::max(pref.best(), r);
  if (kind_ == strategy_kind::micro) {
    auto mine = static_cast<std::size_t>(std::max(offer.my_distinct_offers, 0));
    auto theirs = static_cast<std::size_t>(std::max(offer.their_distinct_offers, 0));
    // A new offer only while the other side has made as many different ones.
    auto k = mine == 0 ? 0 : mine <= theirs ? mine : mine - 1;
    auto [next, u] = pref.ranked(k, offer.incoming);
    while (u < r && k > 0)
      std::tie(next, u) = pref.ranked(--k, offer.incoming);
    return {std::move(next), std::max(u, r)};
  }
  double aim = best;
  if (kind_ == strategy_kind::tit_for_tat) {
    if (offer.their_first) {
      auto conceded = incoming_utility - pref.utility(*offer.their_first);
      aim = best - std::max(conceded, 0.0);
    }
  } else {
    auto rounds = std::max(offer.max_rounds, 1);
    auto t = static_cast<double>(std::min(offer.round, rounds)) / rounds;
    // 53 random bits as a double in [0, 1): the same on every standard library.
    auto share = kind_ == strategy_kind::random
                     ? static_cast<double>((*random_)() >> 11) * 0x1.0p-53
                     : target_utility(kind_, t);
    aim = r + (best - r) * share;
  }
  aim = std::max(aim, r);
  return {pref.offer_at(aim, offer.incoming), aim};
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
  auto name = messages::to_string(kind_);
  auto u = preference_->utility(in);
  auto next = plan_for(offer, u);
  auto broken = preference_->broken(in);
  if (!broken && u >= next.aim && u >= preference_->reservation())
    return decision_of(reply_action::accept,
                       "Accepting " + money(in.amount) + ": " + name +
                           " strategy, utility " + two_decimals(u) +
                           " meets my target of " + two_decimals(next.aim));
  if (offer.round >= offer.max_rounds)
    return decision_of(reply_action::reject,
                       broken ? *broken
                              : name + " strategy: utility " + two_decimals(u) +
                                    " is below my target of " + two_decimals(next.aim));
  next.offer.currency = p.preferred_currency;
  auto with_terms =
      next.offer.terms.text == "{}" ? std::string{} : " with " + next.offer.terms.text;
  auto result = decision_of(
      reply_action::counter,
      "Countering at " + money(next.offer.amount) + with_terms + ": " + name +
          " strategy, target utility " + two_decimals(next.aim) + " in round " +
          std::to_string(offer.round) + " of " + std::to_string(offer.max_rounds));
  result.proposal = std::move(next.offer);
  return result;
}

} // namespace parley::actors::agent
