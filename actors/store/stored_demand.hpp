#pragma once

#include <string>
#include <vector>

#include "messages/coordinator_messages.hpp"
#include "messages/store.hpp"

namespace parley::actors::store {

/// Demand `demand_id` as the store knows it, in the shape the coordinator
/// answers (`GET /api/v1/demands/{id}`): `submitted` (the parley_demands
/// row: user, raw input, understanding; a default value when there is none)
/// and `channels`, its channels' rows, top channel first. A channel is
/// processing until its row says finalized, force_finalized or failed; the
/// demand's proposal is the top channel's once it is final. The rows do not
/// keep a channel's capability tags or why it failed: those stay out.
/// Pure.
messages::demand_view
stored_demand(const std::string& demand_id, messages::demand_view submitted,
              const std::vector<messages::channel_record>& channels);

} // namespace parley::actors::store
