#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "actors/agent/brain.hpp"
#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"

namespace parley::actors::agent {

/// The amounts an agent bargains between (docs/protocols/bilateral.md,
/// "Strategy brains"): its best (utility 1) and its reservation price
/// (utility 0).
struct amount_range {
  std::int64_t best = 0;
  std::int64_t reservation = 0;
};

/// Returns the range of an agent on `side` (buyer or seller) with `p`: a
/// seller's best is `max_auto_approve_amount` and its reservation its floor;
/// a buyer's best is a tenth of `max_auto_approve_amount` (at least 1) and its
/// reservation its ceiling. A best past the reservation price is moved to it.
amount_range range_for(const messages::agent_preferences& p,
                       messages::bargaining_side side);

/// Returns the utility of `amount` within `range`, from 1 at the best to 0 at
/// the reservation price, clamped to [0, 1] (1 where the two are equal).
double utility_of(const amount_range& range, std::int64_t amount);

/// Returns the amount of utility `u` within `range`, rounded toward the best.
std::int64_t amount_of(const amount_range& range, double u);

/// Returns the utility a time-based strategy aims for at `t` (0..1, the share
/// of the round limit used): `1 − t^(1/e)` with e = 0.2 (boulware), 1
/// (linear) or 5 (conceder); 1 for the hardliner. Not for `random`.
double target_utility(messages::strategy_kind kind, double t);

/// Decides by a strategy, over the amount: time-based concession (Boulware,
/// linear, conceder), a hardliner, or a seeded random baseline.
///
/// With `t = min(round, max_rounds) / max_rounds` and the target utility at
/// `t` (for `random`, a fresh uniform draw in [0, 1] from the seeded
/// generator), an offer is answered by the first step that applies:
/// 1. Currency: an offer in another currency is rejected.
/// 2. Accept when the offer is not past the reservation price nor above the
///    auto-approve limit, carries the escrow flag the preference requires,
///    and its utility is at least the target.
/// 3. Last chance (`round >= max_rounds`): otherwise reject.
/// 4. Counter at the target's amount (escrow set by the preference); when
///    that is the offer's own amount (only its escrow flag was wrong), the
///    counter corrects the flag.
/// Hence it never accepts or proposes past its reservation price.
class strategy_brain final : public brain {
public:
  strategy_brain(messages::strategy_kind kind, messages::bargaining_side side,
                 const messages::agent_profile& profile, std::uint64_t seed);

  std::optional<messages::decision> decide(const offer_context& offer) override;

  /// A strategy agent votes and bids from its profile, as a rule agent.
  const messages::agent_profile* voter() const noexcept override { return &profile_; }

private:
  double target(double t);

  messages::strategy_kind kind_;
  messages::bargaining_side side_;
  messages::agent_profile profile_;
  amount_range range_;
  std::mt19937_64 random_;
};

} // namespace parley::actors::agent
