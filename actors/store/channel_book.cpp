#include "actors/store/channel_book.hpp"

#include <utility>

#include "actors/channel/rules.hpp"
#include "messages/json.hpp"

namespace parley::actors::store {

using channel::channel_status;
using messages::channel_event_kind;

void channel_fold::apply(const messages::channel_event& x) {
  auto& r = record_;
  if (events_++ == 0) {
    r.channel_id = x.channel_id;
    r.status = to_string(channel_status::created);
    r.created_at = x.at_ms;
  }
  if (!x.demand_id.empty())
    r.demand_id = x.demand_id;
  r.round = x.round;
  r.updated_at = x.at_ms;
  if (x.setup) {
    r.parent_channel_id = x.setup->parent_channel_id;
    r.depth = x.setup->depth;
  }
  if (x.proposal)
    r.proposal = x.proposal;
  if (auto next = channel::status_after(x.kind))
    r.status = to_string(*next);
  switch (x.kind) {
  case channel_event_kind::demand_broadcast:
    offered_.clear();
    break;
  case channel_event_kind::offer_submitted:
    if (x.offer)
      offered_.insert(x.offer->agent_id);
    break;
  case channel_event_kind::proposal_distributed:
    reviewed_.clear();
    break;
  case channel_event_kind::proposal_feedback:
    if (x.feedback)
      reviewed_.insert(x.feedback->agent_id);
    break;
  default:
    break;
  }
  r.responses = static_cast<std::int32_t>(offered_.size());
  r.feedback = static_cast<std::int32_t>(reviewed_.size());
}

bool channel_fold::terminal() const {
  channel_status status;
  return from_string(record_.status, status) && channel::is_terminal(status);
}

void channel_book::restore(const std::string& id,
                           const std::vector<messages::channel_event>& stored) {
  auto& fold = open_[id];
  fold = channel_fold{};
  for (const auto& x : stored)
    fold.apply(x);
}

bool channel_book::add(const messages::channel_event& x) {
  if (x.channel_id.empty())
    return false;
  auto& fold = open_[x.channel_id];
  fold.apply(x);
  pending_.events.push_back({x.channel_id, fold.events(), to_string(x.kind), x.at_ms,
                             nlohmann::json(x).dump()});
  auto [i, added] = rows_.try_emplace(x.channel_id, pending_.rows.size());
  if (added)
    pending_.rows.push_back(fold.record());
  else
    pending_.rows[i->second] = fold.record();
  if (fold.terminal())
    open_.erase(x.channel_id);
  return true;
}

channel_ops channel_book::take() {
  rows_.clear();
  channel_ops out;
  std::swap(out, pending_);
  return out;
}

messages::channel_event channel_event_of(const std::string& json) {
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded())
    throw messages::json_error("event", "a stored channel event is not JSON");
  return messages::from_json_value<messages::channel_event>(j);
}

std::string proposal_json(const messages::channel_record& x) {
  return x.proposal ? nlohmann::json(*x.proposal).dump() : std::string{};
}

void read_proposal(const std::string& json, messages::channel_record& x) {
  x.proposal = caf::none;
  if (json.empty())
    return;
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded())
    throw messages::json_error("proposal", "a stored proposal is not JSON");
  x.proposal = messages::from_json_value<messages::channel_proposal>(j);
}

} // namespace parley::actors::store
