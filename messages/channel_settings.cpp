#include "messages/channel_settings.hpp"

#include <utility>

#include "messages/time_limits.hpp"

namespace parley::messages {

std::string validate(const channel_settings& x) {
  if (auto why = check_range(x.max_candidates, 1, 100); !why.empty())
    return "max_candidates " + why;
  if (auto why = check_range(x.min_candidates, 1, x.max_candidates); !why.empty())
    return "min_candidates " + why;
  if (auto why = check_range(x.fallback_candidates, 1, x.max_candidates); !why.empty())
    return "fallback_candidates " + why;
  if (auto why = check_range(x.max_rounds, 1, 20); !why.empty())
    return "max_rounds " + why;
  // Written so that a NaN fails too.
  if (!(x.accept_threshold_high > 0.0 && x.accept_threshold_high <= 1.0))
    return "accept_threshold_high must be within (0, 1], got " +
           std::to_string(x.accept_threshold_high);
  if (!(x.accept_threshold_low > 0.0 &&
        x.accept_threshold_low <= x.accept_threshold_high))
    return "accept_threshold_low must be within (0, accept_threshold_high], got " +
           std::to_string(x.accept_threshold_low);
  if (auto why = check_range(x.max_depth, 0, 1); !why.empty())
    return "max_depth " + why;
  if (auto why = check_range(x.max_subchannels, 0, 3); !why.empty())
    return "max_subchannels " + why;
  const std::pair<const char*, std::int64_t> durations[] = {
      {"response_timeout_ms", x.response_timeout_ms},
      {"feedback_timeout_ms", x.feedback_timeout_ms},
      {"state_check_interval_ms", x.state_check_interval_ms},
      {"max_stuck_ms", x.max_stuck_ms},
  };
  for (const auto& [name, ms] : durations)
    if (auto why = check_range(ms, 1, max_delay_ms); !why.empty())
      return name + (" " + why);
  if (auto why = check_range(x.max_recovery_attempts, 0, 100); !why.empty())
    return "max_recovery_attempts " + why;
  if (x.coordinator_brain != "rule" && x.coordinator_brain != "llm")
    return "coordinator_brain must be rule or llm, got \"" + x.coordinator_brain + "\"";
  return {};
}

} // namespace parley::messages
