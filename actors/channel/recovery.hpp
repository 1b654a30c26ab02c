#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "actors/channel/rules.hpp"
#include "messages/channel_settings.hpp"

namespace parley::actors::channel {

/// What the state checker (docs/protocols/channels.md, "The state checker") found, in
/// the order it checks.
enum class stuck_reason : std::uint8_t {
  healthy,
  stuck_in_collecting,
  stuck_in_negotiating,
  missing_responses,
};

/// What the channel does about it.
enum class recovery_action : std::uint8_t {
  /// Healthy, or not stuck long enough.
  nothing,
  /// Put the demand again, in the same round, to the candidates who have not
  /// answered (`recipients`) and to nobody else.
  rebroadcast,
  /// Evaluate the feedback that arrived as if the feedback timeout had come.
  force_evaluate,
  /// Close the collection with the offers that arrived.
  continue_partial,
  /// Fail with failure_reason::max_recovery_attempts.
  fail,
};

/// A channel as its state checker sees it.
struct check_input {
  channel_status status = channel_status::created;
  /// When the channel entered its status, or last recovered if later
  /// (Unix ms): a recovery gives whoever it asked a fresh MAX_STUCK_TIME.
  std::int64_t stuck_since_ms = 0;
  std::int64_t now_ms = 0;
  /// Collecting: the candidates invited this round; negotiating: the
  /// proposal's participants.
  std::int32_t awaited = 0;
  /// Those of them who have not answered yet, in the channel's order.
  std::vector<std::string> missing;
  /// Collecting only: the demand was already put again to the missing
  /// during this collection.
  bool reasked = false;
  /// Recoveries so far in the channel's life.
  std::int32_t attempts = 0;
};

/// The checker's verdict.
struct recovery_decision {
  stuck_reason reason = stuck_reason::healthy;
  recovery_action action = recovery_action::nothing;
  /// The recovery's number (1-based) when it acts; `attempts` when it does
  /// nothing or fails (a failure is no attempt).
  std::int32_t attempt = 0;
  /// rebroadcast: whom to ask again.
  std::vector<std::string> recipients;
};

/// One state check of a channel (docs/protocols/channels.md, "The state checker").
///
/// A channel is stuck when it has been in collecting or negotiating for
/// more than `max_stuck_ms` (by default more than two minutes) since
/// `stuck_since_ms`, with somebody still missing; any other
/// status is healthy (terminal ones are done; the others last no longer
/// than one message in the actor). The checks, in this order:
/// stuck_in_collecting (not re-asked yet in this collection, or nobody has
/// answered even so), stuck_in_negotiating, missing_responses (collecting,
/// re-asked, some answered). A stuck channel with `attempts >=
/// max_recovery_attempts` fails; otherwise the attempt is counted and it
/// re-broadcasts to the missing, force-evaluates the feedback, or continues
/// with the offers that arrived, respectively.
recovery_decision check_channel(const check_input& x,
                                const messages::channel_settings& settings);

std::string to_string(stuck_reason x);
bool from_string(const std::string& text, stuck_reason& x);

} // namespace parley::actors::channel
