#include "messages/coordinator_messages.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

const char* const status_names[] = {"processing", "finalized", "force_finalized",
                                    "failed"};

} // namespace

PARLEY_ENUM_NAMES(demand_status, status_names)

} // namespace parley::messages
