#include "messages/coordinator_messages.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

const char* const demand_status_names[] = {"processing", "finalized", "force_finalized",
                                           "failed"};

} // namespace

PARLEY_ENUM_NAMES(demand_status, demand_status_names)

demand_status status_of(const std::vector<channel_outcome>& channels) {
  for (const auto& c : channels)
    if (c.status == demand_status::processing)
      return demand_status::processing;
  return channels.empty() ? demand_status::processing : channels.front().status;
}

} // namespace parley::messages
