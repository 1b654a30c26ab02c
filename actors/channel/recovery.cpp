#include "actors/channel/recovery.hpp"

#include "messages/enum_names.hpp"
#include "messages/time_limits.hpp"

namespace parley::actors::channel {

namespace {

constexpr const char* reason_names[] = {"healthy", "stuck_in_collecting",
                                        "stuck_in_negotiating", "missing_responses"};

stuck_reason diagnose(const check_input& x,
                      const messages::channel_settings& settings) {
  auto collecting = x.status == channel_status::collecting;
  if (!collecting && x.status != channel_status::negotiating)
    return stuck_reason::healthy;
  if (x.missing.empty() ||
      x.now_ms <= messages::saturating_add(x.stuck_since_ms, settings.max_stuck_ms))
    return stuck_reason::healthy;
  if (!collecting)
    return stuck_reason::stuck_in_negotiating;
  auto nobody_answered = static_cast<std::int32_t>(x.missing.size()) >= x.awaited;
  return !x.reasked || nobody_answered ? stuck_reason::stuck_in_collecting
                                       : stuck_reason::missing_responses;
}

} // namespace

recovery_decision check_channel(const check_input& x,
                                const messages::channel_settings& settings) {
  recovery_decision d;
  d.reason = diagnose(x, settings);
  d.attempt = x.attempts;
  if (d.reason == stuck_reason::healthy)
    return d;
  if (x.attempts >= settings.max_recovery_attempts) {
    d.action = recovery_action::fail;
    return d;
  }
  d.attempt = x.attempts + 1;
  switch (d.reason) {
  case stuck_reason::stuck_in_collecting:
    d.action = recovery_action::rebroadcast;
    d.recipients = x.missing;
    break;
  case stuck_reason::stuck_in_negotiating:
    d.action = recovery_action::force_evaluate;
    break;
  default:
    d.action = recovery_action::continue_partial;
  }
  return d;
}

PARLEY_ENUM_NAMES(stuck_reason, reason_names)

} // namespace parley::actors::channel
