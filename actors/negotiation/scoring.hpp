#pragma once

#include <memory>

#include "actors/agent/domain_preference.hpp"
#include "messages/agent_profile.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/shared.hpp"
#include "outcomes/frontier.hpp"

namespace parley::actors::negotiation {

/// Scores the ends of the negotiations between two parties who value
/// outcomes over the same domain (docs/outcomes.md, "Scores of live
/// negotiations"): the domain's analysis by both utilities is made once, and
/// each end is then scored against it.
class deal_scorer {
public:
  /// Throws std::invalid_argument unless both valuations are valid, over the
  /// same domain, each for a buyer or a seller.
  deal_scorer(const messages::party_valuation& initiator,
              const messages::party_valuation& responder);

  /// The score of `x`'s end: its accepted proposal's, or the reservation
  /// values for any other status, and every offer in utility space.
  messages::deal_score score(const messages::negotiation_record& x) const;

private:
  agent::domain_space initiator_;
  agent::domain_space responder_;
  outcomes::bilateral_analysis analysis_;
};

/// The scorer of negotiations between parties valued so, or null when one
/// has no valuation or they differ in domain. Made once per pair of
/// valuations in a process and shared (a memo of the most recent pairs):
/// the analysis sorts every outcome of the domain, which a room with many
/// negotiations between the same agents would otherwise repeat for each.
std::shared_ptr<const deal_scorer>
scorer_for(const messages::shared<messages::party_valuation>& initiator,
           const messages::shared<messages::party_valuation>& responder);

} // namespace parley::actors::negotiation
