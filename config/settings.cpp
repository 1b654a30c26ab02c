#include "config/settings.hpp"

#include "messages/json.hpp"

namespace parley::config {

namespace {

/// Returns why `value` at `path` is outside `min..max`, or an empty string.
std::string check_range(const char* path, std::int32_t value, std::int32_t min,
                        std::int32_t max) {
  if (value >= min && value <= max)
    return {};
  return std::string{path} + " must be within " + std::to_string(min) + ".." +
         std::to_string(max) + ", got " + std::to_string(value);
}

} // namespace

std::string validate(const settings& x) {
  if (auto why = messages::validate(x.negotiation); !why.empty())
    return "negotiation." + why;
  if (auto why = check_range("room.history_limit", x.room.history_limit, 1, 100000);
      !why.empty())
    return why;
  if (auto why =
          check_range("runtime.scheduler_threads", x.runtime.scheduler_threads, 0, 256);
      !why.empty())
    return why;
  return check_range("runtime.start_window", x.runtime.start_window, 1, 1000000);
}

void to_json(nlohmann::json& j, const settings& x) {
  j = nlohmann::json{{"negotiation", x.negotiation},
                     {"room", {{"history_limit", x.room.history_limit}}},
                     {"runtime",
                      {{"scheduler_threads", x.runtime.scheduler_threads},
                       {"start_window", x.runtime.start_window}}},
                     {"audit", {{"path", x.audit.path}}}};
}

} // namespace parley::config
