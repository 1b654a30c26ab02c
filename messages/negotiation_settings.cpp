#include "messages/negotiation_settings.hpp"

#include "messages/time_limits.hpp"

namespace parley::messages {

std::string validate(const negotiation_settings& x) {
  if (x.max_rounds < 1 || x.max_rounds > 20)
    return "max_rounds must be within 1..20, got " + std::to_string(x.max_rounds);
  // Settings may come from a remote caller, past every file and flag check.
  if (auto why = check_range(x.round_timeout_ms, 1, max_delay_ms); !why.empty())
    return "round_timeout_ms " + why;
  if (auto why = check_range(x.total_timeout_ms, 1, max_delay_ms); !why.empty())
    return "total_timeout_ms " + why;
  if (auto why = validate(x.incentive_split); !why.empty())
    return "incentive_split: " + why;
  return {};
}

} // namespace parley::messages
