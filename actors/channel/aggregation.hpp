#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "messages/channel.hpp"
#include "messages/channel_settings.hpp"

namespace parley::actors::channel {

/// What a round's proposal is made from.
struct aggregation_input {
  std::string channel_id;
  std::string demand_id;
  /// The demand as the user put it: the proposal's objective.
  std::string objective;
  std::int32_t round = 1;
  /// How many candidates got the demand this round.
  std::int32_t invited = 0;
  /// The round's answers, in the order of the candidate list.
  std::vector<messages::offer_response> offers;
  std::int64_t now_ms = 0;
  /// What the demand needs (its capability tags, in order).
  std::vector<std::string> capability_tags;
  /// What each candidate offers, by agent id: its capability tags.
  std::map<std::string, std::vector<std::string>> capabilities;
};

/// Aggregation without a model (docs/protocols/channels.md, "Aggregation"), as the
/// fallback of prompt 4 does too: one assignment per offer that takes part (participate
/// is confirmed, conditional is not), version = round, and a confidence from the share
/// of the invited who take part, in the bands of the accept thresholds (the original
/// specification does not say how confidence is made).
///
/// Gaps (docs/protocols/channels.md, "Gaps and sub-channels", without a model): one per
/// capability tag of the demand that no agent taking part offers (tags compared as
/// coordinator::tag_key does), in the demand's order, each tag once. A tag an agent
/// offers but declined to bring is a gap too: what counts is who takes part.
messages::channel_proposal aggregate(const aggregation_input& in,
                                     const messages::channel_settings& settings);

} // namespace parley::actors::channel
