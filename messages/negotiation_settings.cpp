#include "messages/negotiation_settings.hpp"

namespace parley::messages {

std::string validate(const negotiation_settings& x) {
  if (x.max_rounds < 1 || x.max_rounds > 20)
    return "max_rounds must be within 1..20, got " + std::to_string(x.max_rounds);
  if (x.round_timeout_ms <= 0)
    return "round_timeout_ms must be positive, got " +
           std::to_string(x.round_timeout_ms);
  if (x.total_timeout_ms <= 0)
    return "total_timeout_ms must be positive, got " +
           std::to_string(x.total_timeout_ms);
  if (auto why = validate(x.incentive_split); !why.empty())
    return "incentive_split: " + why;
  return {};
}

} // namespace parley::messages
