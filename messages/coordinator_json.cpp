// JSON mapping of the coordinator's wire types (declared in json.hpp).

#include "messages/json.hpp"
#include "messages/json_fields.hpp"

namespace parley::messages {

namespace {

constexpr const char* demand_status_choices =
    "processing | finalized | force_finalized | failed";

} // namespace

PARLEY_ENUM_JSON(demand_status, demand_status_choices)

PARLEY_JSON_FROM_FIELDS(register_member)
PARLEY_JSON_FROM_FIELDS(submit_demand)
PARLEY_JSON_FROM_FIELDS(demand_receipt)
PARLEY_JSON_FROM_FIELDS(channel_outcome)
PARLEY_JSON_FROM_FIELDS(demand_view)

} // namespace parley::messages
