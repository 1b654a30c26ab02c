#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "actors/agent/preference.hpp"
#include "messages/agent_profile.hpp"
#include "messages/utility.hpp"
#include "outcomes/utility.hpp"

namespace parley::actors::agent {

/// A domain's outcomes ranked by one agent's utility, built once and shared
/// by every brain with the same utility (a tournament's many negotiations).
class domain_space {
public:
  /// Builds the space of `spec` for an agent on `side` (buyer or seller:
  /// whose way the amount's default values run). Throws
  /// std::invalid_argument when `spec` is invalid (`messages::validate`).
  domain_space(const messages::utility_spec& spec, messages::bargaining_side side);

  /// The utility of `offer`: its amount taken at the nearest value of the
  /// domain (clamped to the range), a term it lacks or with a value outside
  /// the domain worth 0 for that issue.
  double utility(const messages::proposal& offer) const;

  /// The proposal of outcome `index` (of `outcomes::enumerate_outcomes`
  /// order) on top of `base`: its amount, escrow flag (when escrow is an
  /// issue) and terms (the domain's terms, in the domain's order).
  messages::proposal proposal_of(std::size_t index,
                                 const messages::proposal& base) const;

  /// Every outcome's utility, by outcome index.
  std::vector<double> utilities() const;

  /// Every outcome by utility, best first (ties by outcome index).
  const std::vector<std::pair<double, std::size_t>>& ranked() const { return ranked_; }

  /// The value index of each issue of `offer` (amount, escrow, terms, in
  /// domain order); a term it lacks or with an unknown value is npos.
  std::vector<std::size_t> issue_values(const messages::proposal& offer) const;

  /// How alike outcome `index` is to an offer with `values`
  /// (`issue_values`): 1 per non-amount issue with the same value, plus 1
  /// minus the amount's distance as a share of its range.
  double likeness(std::size_t index, const std::vector<std::size_t>& values) const;

  const messages::outcome_domain& domain() const { return domain_; }
  const outcomes::linear_utility& utility_function() const { return *utility_; }

private:
  /// Fills `known_terms_`.
  void remember_terms();

  /// The value index of each term of `terms` (a proposal's `terms` text).
  void term_values(const std::string& terms, std::vector<std::size_t>& out) const;

  /// Outcome `index`'s value index of each issue.
  std::vector<std::size_t> decode(std::size_t index) const;

  messages::outcome_domain domain_;
  std::vector<std::size_t> sizes_;
  std::unique_ptr<outcomes::linear_utility> utility_;
  std::vector<std::pair<double, std::size_t>> ranked_;
  /// The terms text `proposal_of` writes for each combination of term
  /// values, and those values: most offers' terms are found here without
  /// parsing them.
  std::unordered_map<std::string, std::vector<std::size_t>> known_terms_;
  /// Each term's key as JSON, with its colon: `"deadline_days":`.
  std::vector<std::string> term_keys_;
};

/// A preference by a linear additive utility over a domain: the utility of
/// an offer as `domain_space` computes it, the reservation value of the
/// utility (a tournament may move it: `reservation`), and offers from the
/// domain's outcomes. No rule of the agent's preferences applies beyond the
/// currency (docs/protocols/bilateral.md, "Strategy brains").
class domain_preference final : public preference {
public:
  domain_preference(std::shared_ptr<const domain_space> space, double reservation);

  double utility(const messages::proposal& offer) const override;
  double reservation() const override { return reservation_; }
  double best() const override;
  std::optional<std::string> broken(const messages::proposal& offer) const override;
  messages::proposal offer_at(double target,
                              const messages::proposal& theirs) const override;
  std::size_t rank_count() const override { return space_->ranked().size(); }
  std::pair<messages::proposal, double>
  ranked(std::size_t k, const messages::proposal& theirs) const override;

private:
  std::shared_ptr<const domain_space> space_;
  double reservation_;
};

} // namespace parley::actors::agent
