#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "messages/channel.hpp"
#include "messages/channel_member.hpp"
#include "messages/fwd.hpp"

namespace parley::actors::channel {

/// The id of a member's answer: `<channel_id>:<agent_id>:r<round>:<kind>` (kind "offer"
/// or "feedback"). Deterministic, so that an answer sent twice for the same round is
/// the same message to the channel
/// (docs/protocols/channels.md, "Idempotency and refusals": a replay is ignored as
/// E011), and unique per agent, channel, round and kind (read from the end, the kind
/// and round are unambiguous).
std::string member_message_id(const std::string& channel_id,
                              const std::string& agent_id, std::int32_t round,
                              const char* kind);

/// A channel member's deterministic brain (no model): what it answers a
/// channel's demand (`demand_offer`) and proposal (`proposal_review`) with.
/// An empty result is silence: the channel's collection timeout decides.
///
/// Rule brain:
/// - demand: participates (`offer`) when one of the profile's capabilities
///   is among the demand's capability_tags, the first such capability in
///   the profile's order naming the part it plays; declines otherwise. The
///   contribution is the profile's description, or "<name> provides
///   <capability>" without one; the confidence is the channel's match score
///   (clamped to 0..100).
/// - proposal: negotiates (asking to revisit its part) in every round
///   before `accept_from_round`, accepts from that round on.
///
/// Script brain: round r answers as `script[r - 1]` says (silent past the
/// end); a part it takes without a scripted contribution gets the rule
/// brain's, a decline without a reason gets "declined by script".
///
/// Both answer any number of channels at once: nothing is remembered
/// between messages.
class member_brain {
public:
  explicit member_brain(messages::channel_member_spec spec);

  /// The answer to a channel's demand, if any.
  std::optional<messages::offer_response> answer(const messages::demand_offer& x) const;

  /// The feedback on a channel's proposal, if any.
  std::optional<messages::proposal_feedback>
  review(const messages::proposal_review& x) const;

  const messages::channel_member_spec& spec() const noexcept { return spec_; }

private:
  /// The first capability of the profile that `tags` asks for, or null.
  const std::string* matching(const std::vector<std::string>& tags) const;

  std::string contribution_for(const std::string& capability) const;

  messages::offer_response offer_base(const messages::demand_offer& x) const;

  messages::proposal_feedback feedback_base(const messages::proposal_review& x) const;

  messages::channel_member_spec spec_;
  /// The display name, or the agent id without one.
  std::string name_;
};

} // namespace parley::actors::channel
