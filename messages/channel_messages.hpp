#pragma once

// What a channel sends its candidates (demand_offer, proposal_review:
// docs/protocols/channels.md, "Flow"). Each carries the channel's handle: where the
// answer goes.

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/channel.hpp"
#include "messages/fields.hpp"
#include "messages/handles/channel.hpp"
#include "messages/shared.hpp"

namespace parley::messages {

/// Invites a candidate to answer the demand with an `offer_response`.
struct demand_offer {
  actors::channel_actor channel;
  std::string channel_id;
  std::string demand_id;
  /// The demand as the user put it (the understanding's surface demand).
  std::string surface_demand;
  std::vector<std::string> capability_tags;
  /// 1-based; a new round re-broadcasts with the next.
  std::int32_t round = 1;
  /// Why this candidate was invited.
  std::string filter_reason;
  /// 0..100.
  std::int32_t match_score = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, demand_offer& x) {
  return f(caf::meta::type_name("demand_offer"), optional_field("channel", x.channel),
           field("channel_id", x.channel_id), field("demand_id", x.demand_id),
           field("surface_demand", x.surface_demand),
           optional_field("capability_tags", x.capability_tags),
           field("round", x.round), optional_field("filter_reason", x.filter_reason),
           optional_field("match_score", x.match_score));
}

/// Puts the round's proposal to a participant, who answers with a
/// `proposal_feedback`.
struct proposal_review {
  actors::channel_actor channel;
  std::string channel_id;
  std::string demand_id;
  /// One proposal shared by every participant's review.
  shared<channel_proposal> proposal;
  std::int32_t round = 1;
  std::int32_t max_rounds = 5;
  /// The participant's own assignment, if the proposal has one.
  caf::optional<assignment> your_assignment;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, proposal_review& x) {
  return f(caf::meta::type_name("proposal_review"),
           optional_field("channel", x.channel), field("channel_id", x.channel_id),
           field("demand_id", x.demand_id), field("proposal", x.proposal),
           field("round", x.round), field("max_rounds", x.max_rounds),
           omittable_field("your_assignment", x.your_assignment));
}

} // namespace parley::messages
