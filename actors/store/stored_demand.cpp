#include "actors/store/stored_demand.hpp"

#include <utility>

namespace parley::actors::store {

namespace {

messages::demand_status status_of(const std::string& channel_status) {
  messages::demand_status x = messages::demand_status::processing;
  // Any other channel status (docs/protocols/channels.md, "States and transitions") is
  // a channel still running.
  if (!messages::from_string(channel_status, x))
    return messages::demand_status::processing;
  return x;
}

} // namespace

messages::demand_view
stored_demand(const std::string& demand_id, messages::demand_view submitted,
              const std::vector<messages::channel_record>& channels) {
  auto view = std::move(submitted);
  view.demand_id = demand_id;
  view.channels.clear();
  view.proposal = caf::none;
  for (const auto& row : channels) {
    messages::channel_outcome c;
    c.channel_id = row.channel_id;
    c.parent_channel_id = row.parent_channel_id;
    c.depth = row.depth;
    c.status = status_of(row.status);
    c.proposal = row.proposal;
    view.channels.push_back(std::move(c));
  }
  if (!view.channels.empty()) {
    const auto& top = view.channels.front();
    if (top.status == messages::demand_status::finalized ||
        top.status == messages::demand_status::force_finalized)
      view.proposal = top.proposal;
  }
  view.status = messages::status_of(view.channels);
  return view;
}

} // namespace parley::actors::store
