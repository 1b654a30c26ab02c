#pragma once

// The channel API's request bodies (a demand, an offer, a feedback:
// docs/protocols/channels.md), read as strictly as bodies.hpp's: each throws
// messages::json_error naming the field at fault.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "messages/channel.hpp"
#include "messages/coordinator_messages.hpp"

namespace parley::service {

/// `POST /demand/submit`: `raw_input` (not empty, not only whitespace, at
/// most actors::coordinator::max_demand_bytes) and an optional `user_id`.
messages::submit_demand read_demand(const nlohmann::json& j);

/// `POST /channels/{id}/messages`: one of an external agent's two answers.
struct channel_message {
  /// True: `offer`; false: `feedback`.
  bool is_offer = true;
  messages::offer_response offer;
  messages::proposal_feedback feedback;

  const std::string& agent_id() const {
    return is_offer ? offer.agent_id : feedback.agent_id;
  }
};

/// The member's message as it is written there: `type` ("offer_response" or
/// "proposal_feedback") says which, the other fields are the message's own.
/// `channel_id` may be left out; given, it must be the path's. The answer
/// must be valid as the channel checks it (messages::validate).
channel_message read_channel_message(nlohmann::json j, const std::string& channel_id);

} // namespace parley::service
