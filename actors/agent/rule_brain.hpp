#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "actors/agent/brain.hpp"
#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"

namespace parley::actors::agent {

/// A negotiation style's numbers, in basis points (1 bp = 0.01 %).
///
/// | style        | distance (first → last round) | tolerance | concession |
/// |--------------|-------------------------------|-----------|------------|
/// | aggressive   | 3000 → 2000                   | 200       | 2500       |
/// | balanced     | 1500 → 1000                   | 500       | 4000       |
/// | conservative | 500 → 500                     | 1000      | 5000       |
struct style_parameters {
  /// How far from the offer the first-round counter lies.
  std::int64_t first_distance_bp = 0;
  /// How far from the offer the last-round counter lies.
  std::int64_t last_distance_bp = 0;
  /// How far beyond its own latest offer the agent still accepts.
  std::int64_t tolerance_bp = 0;
  /// The least share of the gap to the offer that a counter gives up.
  std::int64_t concession_bp = 0;
};

/// Returns the numbers of `style` (balanced for a value outside the enum).
style_parameters parameters_for(messages::negotiation_style style);

/// Returns the counter distance of `style` in `round` of `max_rounds`:
/// `first − (first − last) · min(round − 1, max_rounds − 1) / max(max_rounds − 1, 1)`
/// in integer arithmetic (rounds outside 1..max_rounds count as the nearest end).
std::int64_t counter_distance_bp(messages::negotiation_style style, std::int32_t round,
                                 std::int32_t max_rounds);

/// Returns `side`, or for `from_role` the side `role` suggests: a role
/// containing (in any case) client, buyer, customer, payer or purchaser is a
/// buyer; else one containing freelancer, seller, provider, contractor, vendor,
/// supplier or payee is a seller; anything else is a buyer. Never `from_role`.
messages::bargaining_side resolve_side(messages::bargaining_side side,
                                       const std::string& role);

/// Returns the first hard rule of `p` that `offer` breaks on `side` (buyer or
/// seller), as a sentence: the auto-approve limit, the reservation price
/// ("£1.00 is below my floor of £100.00"), then the escrow flag; the currency
/// is not checked here.
std::optional<std::string> broken_rule(const messages::agent_preferences& p,
                                       messages::bargaining_side side,
                                       const messages::proposal& offer);

/// Decides deterministically, from the user's preferences alone: the fallback
/// when no LLM is available, and the brain of simulations and load tests.
///
/// A buyer wants lower amounts, a seller higher ones. With `x` the offer's
/// amount, `last` this agent's latest offer (if any) and `p` its preferences,
/// an offer is answered by the first step that applies:
/// 1. Currency: an offer not in `p.preferred_currency` is rejected ("Only GBP
///    is accepted, got EUR").
/// 2. Last chance (`round >= max_rounds`, where a counter would expire the
///    negotiation): accept if the hard rules hold, otherwise reject naming the
///    first rule broken. The hard rules: `x <= p.max_auto_approve_amount`, `x`
///    not past the reservation price (`messages::past_reservation`: below a
///    seller's floor, above a buyer's ceiling), and the offer's escrow flag
///    equals `escrow_required(p, x)`.
/// 3. Acceptable price: with `last`, a buyer accepts `x <= last · (1 + tol)`
///    and a seller `x >= last · (1 − tol)`; without `last` (the opening
///    proposal) only a conservative agent accepts. The hard rules must hold.
/// 4. Counter. The candidate starts `dist` (`counter_distance_bp`) from the
///    offer: a buyer's at `x · (1 − dist)` rounded down; with `last`, at least
///    `last + ceil((x − last) · concession)` and never below `last`. A
///    seller's mirrors it: `x · (1 + dist)` rounded up, at most
///    `last − ceil((last − x) · concession)`, never above `last`. A buyer's is
///    then capped at its ceiling; a seller's at `p.max_auto_approve_amount`,
///    then raised to its floor.
///    - If the candidate reaches or passes the offer (a buyer's `>= x`, a
///      seller's `<= x`), the offer is as good as the counter: accept it if
///      the hard rules hold. Else, if only the escrow flag is wrong, counter
///      with the offer's own amount and the right flag, unless that is
///      `last` again; otherwise (a seller offered more than its limit, or
///      nothing would change) reject naming the rule broken.
///    - If a hard rule is broken and the candidate equals `last`, no movement
///      is possible: reject naming the rule broken.
///    - Otherwise counter with the offer, its amount replaced by the candidate
///      and its escrow flag set to `escrow_required(p, candidate)` ("Countering
///      at £1,080.00: balanced style, 12.5% below the offer").
///
/// Hence, in one negotiation, the agent's own counters move monotonically
/// toward the other side and never cross its offers (provided its opening
/// proposal, if it made one, is within its limit); it never accepts above its
/// limit or past its reservation price, in another currency, or with the
/// wrong escrow flag, and never proposes the wrong escrow flag or past its
/// reservation price.
class rule_brain final : public brain {
public:
  /// Builds a brain bargaining for `profile` on `side`, resolved with
  /// `resolve_side` against the profile's role.
  rule_brain(messages::bargaining_side side, const messages::agent_profile& profile);

  /// Returns the side this brain bargains on: `buyer` or `seller`.
  messages::bargaining_side side() const noexcept { return side_; }

  /// Answers `offer` by the steps above; never nullopt.
  std::optional<messages::decision> decide(const offer_context& offer) override;

  /// A rule agent votes and bids from its profile.
  const messages::agent_profile* voter() const noexcept override { return &profile_; }

private:
  messages::bargaining_side side_;
  messages::agent_profile profile_;
};

} // namespace parley::actors::agent
