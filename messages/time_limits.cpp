#include "messages/time_limits.hpp"

namespace parley::messages {

std::string check_range(std::int64_t value, std::int64_t min, std::int64_t max) {
  if (value >= min && value <= max)
    return {};
  return "must be within " + std::to_string(min) + ".." + std::to_string(max) +
         ", got " + std::to_string(value);
}

} // namespace parley::messages
