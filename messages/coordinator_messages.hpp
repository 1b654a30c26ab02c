#pragma once

// What the coordinator (actors/coordinator/actor.hpp) is told and asked: who can take
// up demands, the demand submission (docs/protocols/channels.md, "Demands") and its
// answer, and where a demand stands (GET /api/v1/demands/{id}).

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/channel.hpp"
#include "messages/demand.hpp"
#include "messages/fields.hpp"
#include "messages/handles/channel.hpp"

namespace parley::messages {

/// Registers a channel member with the coordinator, or replaces the one
/// with the same agent id: what it offers, and where demands reach it.
struct register_member {
  channel_profile profile;
  actors::channel_member_actor agent;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, register_member& x) {
  return f(caf::meta::type_name("register_member"), field("profile", x.profile),
           optional_field("agent", x.agent));
}

/// A user's demand in their own words (docs/protocols/channels.md, "Demands").
struct submit_demand {
  std::string raw_input;
  std::string user_id;
  /// Empty: the coordinator makes one.
  std::string demand_id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, submit_demand& x) {
  return f(caf::meta::type_name("submit_demand"), field("raw_input", x.raw_input),
           optional_field("user_id", x.user_id),
           optional_field("demand_id", x.demand_id));
}

/// Where a demand or one of its channels stands: processing until its
/// channel ends, then how the channel ended.
enum class demand_status : std::uint8_t {
  processing,
  finalized,
  force_finalized,
  failed,
};

/// The answer to a demand: the demand as understood, and its channel
/// (docs/protocols/channels.md, "Demands").
struct demand_receipt {
  std::string demand_id;
  std::string channel_id;
  demand_status status = demand_status::processing;
  demand_understanding understanding;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, demand_receipt& x) {
  return f(caf::meta::type_name("demand_receipt"), field("demand_id", x.demand_id),
           field("channel_id", x.channel_id), field("status", x.status),
           field("understanding", x.understanding));
}

/// One channel of a demand: the top one, or a sub-channel opened for a gap of its
/// parent's final proposal (docs/protocols/channels.md, "Gaps and sub-channels").
struct channel_outcome {
  std::string channel_id;
  /// Empty for the top channel.
  std::string parent_channel_id;
  /// 0 for the top channel, 1 for a sub-channel.
  std::int32_t depth = 0;
  /// What it asks its candidates for: the demand's tags, or its gap's.
  std::vector<std::string> capability_tags;
  demand_status status = demand_status::processing;
  /// The final proposal (finalized, force finalized), or the last one a
  /// failed channel made.
  caf::optional<channel_proposal> proposal;
  /// Why it failed (docs/protocols/channels.md, "Failure reasons").
  std::string reason;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_outcome& x) {
  return f(caf::meta::type_name("channel_outcome"), field("channel_id", x.channel_id),
           optional_field("parent_channel_id", x.parent_channel_id),
           optional_field("depth", x.depth),
           optional_field("capability_tags", x.capability_tags),
           field("status", x.status), omittable_field("proposal", x.proposal),
           optional_field("reason", x.reason));
}

/// A demand as the coordinator keeps it.
struct demand_view {
  std::string demand_id;
  std::string user_id;
  std::string raw_input;
  /// Processing while any of its channels runs; then its top channel's.
  demand_status status = demand_status::processing;
  demand_understanding understanding;
  /// The top channel first, then its sub-channels in the order they opened.
  std::vector<channel_outcome> channels;
  /// The top channel's final proposal, once it has one; its gaps stay noted
  /// whether or not a sub-channel was opened for them.
  caf::optional<channel_proposal> proposal;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, demand_view& x) {
  return f(caf::meta::type_name("demand_view"), field("demand_id", x.demand_id),
           optional_field("user_id", x.user_id), field("raw_input", x.raw_input),
           field("status", x.status), field("understanding", x.understanding),
           field("channels", x.channels), omittable_field("proposal", x.proposal));
}

/// A demand's status from its channels' (the top one first): processing
/// while any of them runs (or before the first), then the top channel's.
demand_status status_of(const std::vector<channel_outcome>& channels);

std::string to_string(demand_status x);
bool from_string(const std::string& text, demand_status& x);

} // namespace parley::messages
