#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "messages/channel.hpp"
#include "messages/channel_event.hpp"
#include "messages/channel_settings.hpp"
#include "actors/common/refusal.hpp"
#include "messages/error_code.hpp"

namespace parley::actors::channel {

/// The channel statuses (docs/protocols/channels.md, "States and transitions"), in
/// their order.
enum class channel_status : std::uint8_t {
  created,
  broadcasting,
  collecting,
  aggregating,
  proposal_sent,
  negotiating,
  finalized,
  force_finalized,
  failed,
};

/// Why a channel failed (docs/protocols/channels.md, "Failure reasons"):
/// max_recovery_attempts means the state checker gave up on a stuck channel.
enum class failure_reason : std::uint8_t {
  low_acceptance,
  no_participants,
  max_rounds_exceeded,
  timeout,
  max_recovery_attempts,
};

/// A refused input: the shell logs it, and nothing changed.
using actors::refusal;

/// True for finalized, force_finalized and failed: no transition leaves them.
bool is_terminal(channel_status x);

/// The status a channel rests in after it reported an event of kind `k` (the
/// actor reports an event, then moves on at once: demand.broadcast is
/// followed by collecting, proposal.distributed by negotiating); none when
/// the kind does not change it.
std::optional<channel_status> status_after(messages::channel_event_kind k);

/// The transition table (docs/protocols/channels.md, "States and transitions"): whether
/// `from -> to` is allowed. No status goes to itself; negotiating -> collecting starts
/// a new round.
bool is_valid_transition(channel_status from, channel_status to);

/// Moves `status` to `to` if the table allows it; otherwise returns E010
/// (illegal_transition) and leaves `status` as it was.
std::optional<refusal> transition(channel_status& status, channel_status to);

/// The message ids a channel has processed (every operation is idempotent by
/// message_id: docs/protocols/channels.md, "Idempotency and refusals").
class processed_messages {
public:
  /// Records `message_id`. A replay is refused with E011 (duplicate_message),
  /// an empty id with E001 (invalid_request); either way nothing changes.
  std::optional<refusal> record(const std::string& message_id);

  bool contains(const std::string& message_id) const {
    return ids_.count(message_id) > 0;
  }

  std::size_t size() const noexcept { return ids_.size(); }

  /// Makes room for `n` ids at once (a channel expects two per candidate
  /// and round), instead of rehashing as they come.
  void reserve(std::size_t n) { ids_.reserve(n); }

private:
  std::unordered_set<std::string> ids_;
};

/// What the evaluation decides from one round's feedback
/// (docs/protocols/channels.md, "Evaluation and thresholds").
struct feedback_evaluation {
  /// finalized, collecting (a new round), force_finalized or failed.
  channel_status next = channel_status::failed;
  /// Whether the round was evaluated, to be published as
  /// `towow.feedback.evaluated` before the channel moves on: not when nobody
  /// is active (the channel fails with no_participants at once,
  /// before it computes a rate or emits anything).
  bool evaluated = true;
  std::int32_t accepts = 0;
  std::int32_t negotiates = 0;
  std::int32_t withdraws = 0;
  /// Expected participants less those who withdrew.
  std::int32_t active = 0;
  /// accepts / active; 0 when nobody is active.
  double accept_rate = 0;
  /// Set when `next` is failed.
  std::optional<failure_reason> failure;
  /// Force finalized only (docs/protocols/channels.md, "Forced finalize"): who
  /// accepted, and who gave any other feedback, each by agent id (not in the order
  /// the answers arrived, which in real time differs run to run). Agents that gave
  /// none are in neither list.
  std::vector<std::string> confirmed;
  std::vector<std::string> optional;
  /// Failed with low_acceptance only: what the participants asked to change.
  std::string compromise_suggestion;
};

/// Evaluates the feedback on the proposal of `round` (1-based) from the agents in
/// `expected` (docs/protocols/channels.md, "Evaluation and thresholds", and
/// "Forced finalize"). Feedback from other agents is ignored; an agent's latest
/// feedback counts, in the place of its first.
///
/// accept_rate = accepts / (|expected| - withdraws). Nobody active: failed,
/// no_participants, not evaluated. rate >= accept_threshold_high: finalized. rate >=
/// accept_threshold_low: a new round (collecting), or force_finalized when
/// `round` is the last (>= max_rounds). Lower: failed, low_acceptance.
feedback_evaluation
evaluate_feedback(const std::set<std::string>& expected,
                  const std::vector<messages::proposal_feedback>& feedback,
                  std::int32_t round, const messages::channel_settings& settings);

/// As above, for a channel that admits feedback only from its `expected`
/// participants (their number): every answer in `feedback` counts.
feedback_evaluation
evaluate_feedback(std::int32_t expected,
                  const std::vector<messages::proposal_feedback>& feedback,
                  std::int32_t round, const messages::channel_settings& settings);

/// Which gaps of a channel's final proposal become sub-channels.
struct subchannel_plan {
  /// Open a sub-channel (at depth + 1) for each, in the proposal's order.
  std::vector<messages::gap> open;
  /// Only noted in the final proposal
  /// (docs/protocols/channels.md, "Gaps and sub-channels": beyond the depth limit, or
  /// over the per-channel limit).
  std::vector<messages::gap> noted;
};

/// Plans sub-channels (docs/protocols/channels.md, "Gaps and sub-channels"): a
/// channel at `depth` (0 for a top channel) whose status is finalized or
/// force_finalized opens sub-channels for the gaps of its `proposal` while depth + 1
/// <= max_depth and it has fewer than max_subchannels (counting the
/// `already_open`). Every other gap is noted; a channel not finalized opens none.
subchannel_plan plan_subchannels(channel_status status, std::int32_t depth,
                                 std::int32_t already_open,
                                 const messages::channel_proposal& proposal,
                                 const messages::channel_settings& settings);

std::string to_string(channel_status x);
bool from_string(const std::string& text, channel_status& x);
std::string to_string(failure_reason x);
bool from_string(const std::string& text, failure_reason& x);

} // namespace parley::actors::channel
