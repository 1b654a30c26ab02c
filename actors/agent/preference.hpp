#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "messages/agent_profile.hpp"
#include "messages/proposal.hpp"

namespace parley::actors::agent {

/// How a strategy brain values offers, and what it offers at a given utility
/// (docs/protocols/bilateral.md, "Strategy brains"). Two kinds: over the
/// amount alone between its best and its reservation price
/// (`amount_preference`), or a linear additive utility over a domain
/// (`domain_preference`, docs/outcomes.md, "Domains in Parley").
class preference {
public:
  virtual ~preference() = default;

  /// The utility of `offer` to this agent, within [0, 1].
  virtual double utility(const messages::proposal& offer) const = 0;

  /// The utility of no agreement: the agent neither offers nor accepts less.
  virtual double reservation() const = 0;

  /// The utility of the agent's best offer.
  virtual double best() const = 0;

  /// Why `offer` may not be accepted whatever its utility (a rule the
  /// agent's preferences set), or nullopt.
  virtual std::optional<std::string> broken(const messages::proposal& offer) const = 0;

  /// The offer worth at least `target` (its best when nothing is), as close
  /// to `target` as the agent's offers allow; among nearly equal ones, the
  /// one most like `theirs`, the other side's latest offer, whose currency
  /// and description it keeps.
  virtual messages::proposal offer_at(double target,
                                      const messages::proposal& theirs) const = 0;

  /// The number of the agent's offers ranked from its best (at least 1).
  virtual std::size_t rank_count() const = 0;

  /// The agent's offer of rank `k` (0 is its best; clamped to the last),
  /// and its utility.
  virtual std::pair<messages::proposal, double>
  ranked(std::size_t k, const messages::proposal& theirs) const = 0;
};

} // namespace parley::actors::agent
