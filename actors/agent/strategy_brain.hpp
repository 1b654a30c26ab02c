#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "actors/agent/amount_preference.hpp"
#include "actors/agent/brain.hpp"
#include "actors/agent/preference.hpp"
#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"

namespace parley::actors::agent {

/// Returns the share of the way from its best to its reservation value that
/// a time-based strategy still holds at `t` (0..1, the share of the round
/// limit used): `1 − t^(1/e)` with e = 0.2 (boulware), 1 (linear) or 5
/// (conceder); 1 for the hardliner. Not for the other strategies.
double target_utility(messages::strategy_kind kind, double t);

/// Decides by a strategy (docs/protocols/bilateral.md, "Strategy brains"),
/// over a `preference`: the amount alone, or the agent's utility over a
/// domain.
///
/// Each offer is answered by the first step that applies:
/// 1. Currency: an offer in another currency is rejected.
/// 2. The strategy names its next offer and the utility it aims for:
///    - time-based (boulware, linear, conceder) and hardliner: aim =
///      r + (best − r) · `target_utility(t)` with t = min(round, max_rounds) /
///      max_rounds and r the reservation value; `random` draws the share
///      uniformly from the seeded generator instead;
///    - tit_for_tat: aim = best − (how far the other side's offers rose in
///      this agent's utility since their first), at least r;
///    - micro: its offers ranked best first; it makes a new (the next lower)
///      one only while the other side has made at least as many different
///      offers as it has, otherwise it repeats its lowest; never below r.
///    The next offer is the one worth at least the aim nearest to it.
/// 3. Accept when no rule of the preference forbids the offer and its utility
///    is at least the aim (and r).
/// 4. Last chance (`round >= max_rounds`): otherwise reject.
/// 5. Counter with the next offer.
/// Hence it never accepts or proposes below its reservation value.
class strategy_brain final : public brain {
public:
  /// A brain over the profile's utility when it has one, else over the
  /// amount (`amount_preference`).
  strategy_brain(messages::strategy_kind kind, messages::bargaining_side side,
                 const messages::agent_profile& profile, std::uint64_t seed);

  /// A brain over `preference` (a tournament shares one domain's ranking
  /// among many brains).
  strategy_brain(messages::strategy_kind kind, messages::bargaining_side side,
                 const messages::agent_profile& profile, std::uint64_t seed,
                 std::shared_ptr<const preference> preference);

  std::optional<messages::decision> decide(const offer_context& offer) override;

  /// A strategy agent votes and bids from its profile, as a rule agent.
  const messages::agent_profile* voter() const noexcept override { return &profile_; }

private:
  /// The next offer and the utility it aims for.
  struct plan {
    messages::proposal offer;
    double aim = 1.0;
  };

  plan plan_for(const offer_context& offer, double incoming_utility);

  messages::strategy_kind kind_;
  messages::bargaining_side side_;
  messages::agent_profile profile_;
  std::shared_ptr<const preference> preference_;
  /// The random strategy's generator (only it has one: seeding one costs
  /// more than a decision).
  std::optional<std::mt19937_64> random_;
};

} // namespace parley::actors::agent
