#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "actors/agent/preference.hpp"
#include "messages/agent_profile.hpp"

namespace parley::actors::agent {

/// The amounts an agent bargains between: its best (utility 1) and its
/// reservation price (utility 0).
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

/// A preference over the amount alone, from the agent's preferences: utility
/// falls linearly from the best to the reservation price; the escrow flag is
/// set as the preferences require and the auto-approve limit, the
/// reservation price and the escrow rule are hard rules (`broken_rule`). Its
/// ranked offers are the amounts of utility 1, 0.99, ..., 0.
class amount_preference final : public preference {
public:
  amount_preference(const messages::agent_preferences& p,
                    messages::bargaining_side side);

  double utility(const messages::proposal& offer) const override;
  double reservation() const override { return 0.0; }
  double best() const override { return 1.0; }
  std::optional<std::string> broken(const messages::proposal& offer) const override;
  messages::proposal offer_at(double target,
                              const messages::proposal& theirs) const override;
  std::size_t rank_count() const override { return 101; }
  std::pair<messages::proposal, double>
  ranked(std::size_t k, const messages::proposal& theirs) const override;

private:
  messages::agent_preferences preferences_;
  messages::bargaining_side side_;
  amount_range range_;
};

} // namespace parley::actors::agent
