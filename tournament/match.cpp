#include "tournament/match.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "actors/agent/rule_brain.hpp"
#include "actors/agent/strategy_brain.hpp"
#include "actors/negotiation/rules.hpp"
#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"

namespace parley::tournament {

using actors::negotiation::effects;
using actors::negotiation::party;
using messages::bargaining_side;

namespace {

/// Virtual time of the first move, in Unix milliseconds.
constexpr std::int64_t match_start_ms = 1'700'000'000'000;

bargaining_side side_of(role x) {
  return x == role::buyer ? bargaining_side::buyer : bargaining_side::seller;
}

std::unique_ptr<actors::agent::brain> brain_of(const party_setup& p, role side) {
  if (p.player.kind == messages::brain_kind::strategy && p.preference)
    return std::make_unique<actors::agent::strategy_brain>(
        p.player.strategy, side_of(side), p.profile, p.seed, p.preference);
  return actors::agent::make_brain(brain_spec_for(p.player, side, p.seed), p.profile);
}

} // namespace

const std::string& agent_id(role x) {
  static const std::string buyer = "buyer";
  static const std::string seller = "seller";
  return x == role::buyer ? buyer : seller;
}

messages::agent_profile party_profile(const scenario_spec& s, role side, double r) {
  messages::agent_profile p;
  p.role = side == role::buyer ? "buyer" : "seller";
  p.display_name = p.role;
  auto& pref = p.preferences;
  const auto& a = s.domain.amount;
  auto span = static_cast<double>(a.max - a.min);
  pref.max_auto_approve_amount = a.max;
  pref.preferred_currency = s.currency;
  pref.escrow_preference = messages::escrow_preference::never;
  pref.reservation_amount =
      side == role::buyer ? a.max - static_cast<std::int64_t>(std::floor(r * span))
                          : a.min + static_cast<std::int64_t>(std::ceil(r * span));
  p.utility = side == role::buyer ? s.buyer : s.seller;
  p.utility->reservation = r;
  return p;
}

messages::brain_spec brain_spec_for(const player& p, role side, std::uint64_t seed) {
  messages::brain_spec spec;
  spec.kind = p.kind;
  spec.side = side_of(side);
  spec.strategy = p.strategy;
  spec.seed = seed;
  return spec;
}

messages::negotiation_record play(const match_setup& x) {
  auto responder_role = x.opener == role::buyer ? role::seller : role::buyer;
  const auto& initiator = x.opener == role::buyer ? x.buyer : x.seller;
  const auto& responder = x.opener == role::buyer ? x.seller : x.buyer;
  std::unique_ptr<actors::agent::brain> brains[] = {
      brain_of(initiator, x.opener), brain_of(responder, responder_role)};
  messages::negotiation_opening opening;
  opening.id = x.id;
  opening.room_id = "tournament";
  opening.initiator = agent_id(x.opener);
  opening.responder = agent_id(responder_role);
  opening.proposal = x.opening;
  opening.settings.max_rounds = x.max_rounds;
  auto now = match_start_ms;
  effects out;
  actors::negotiation::rules negotiation{std::move(opening), now, out};
  std::uint64_t next_message = 0;
  // The timer the rules keep pending (a plain value: g++ 12 takes an
  // optional one here for uninitialised).
  actors::negotiation::timer_request pending{};
  auto timer_pending = false;
  while (!negotiation.terminal()) {
    if (out.arm) {
      pending = *out.arm;
      timer_pending = true;
    }
    if (!out.relay_to) {
      // Nobody to move (a party stayed silent): the pending timer fires at
      // its time, and expires the negotiation or re-arms.
      if (!timer_pending)
        break;
      auto timer = pending;
      timer_pending = false;
      out = effects{};
      now = std::max(now, timer.due_ms);
      negotiation.on_timer(timer.generation, now, out);
      continue;
    }
    auto to = *out.relay_to;
    const auto& who = negotiation.agent_of(to);
    const auto* offer = negotiation.latest_offer();
    auto decision =
        brains[to == party::initiator ? 0 : 1]->decide(actors::agent::context_of(
            x.id, offer->proposal, negotiation.terms_for(to), x.max_rounds));
    auto message_id = "m" + std::to_string(++next_message);
    auto action = decision ? decision->action : messages::reply_action::silent;
    out = effects{};
    now += 1;
    switch (action) {
    case messages::reply_action::counter:
      negotiation.on_message(messages::agent_counter{message_id, x.id, who,
                                                     std::move(decision->proposal),
                                                     std::move(decision->reason)},
                             now, out);
      break;
    case messages::reply_action::accept:
      negotiation.on_message(messages::agent_accept{message_id, x.id, who}, now, out);
      break;
    case messages::reply_action::reject:
      negotiation.on_message(
          messages::agent_reject{message_id, x.id, who, std::move(decision->reason)},
          now, out);
      break;
    case messages::reply_action::silent:
      break;
    }
  }
  return negotiation.take_record();
}

} // namespace parley::tournament
