#include "actors/store/channel_book.hpp"

#include <array>
#include <utility>

#include "actors/channel/rules.hpp"
#include "actors/store/channel_codec.hpp"
#include "messages/json.hpp"

namespace parley::actors::store {

using channel::channel_status;
using messages::channel_event_kind;

const std::string& type_name(channel_event_kind x) {
  static const auto names = [] {
    std::array<std::string, static_cast<std::size_t>(channel_event_kind::failed) + 1>
        out;
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = to_string(static_cast<channel_event_kind>(i));
    return out;
  }();
  return names.at(static_cast<std::size_t>(x));
}

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

messages::channel_record channel_fold::open_row() {
  caf::optional<messages::channel_proposal> kept;
  std::swap(kept, record_.proposal);
  auto out = record_;
  std::swap(kept, record_.proposal);
  return out;
}

bool channel_fold::terminal() const {
  return ended(record_);
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
  auto i = open_.try_emplace(x.channel_id).first;
  auto& fold = i->second;
  auto began = fold.events() == 0;
  auto status = fold.record().status;
  auto round = fold.record().round;
  fold.apply(x);
  auto& bodies = pending_.bodies;
  if (bodies.empty())
    bodies.reserve(last_bodies_);
  auto offset = bodies.size();
  append_channel_event(bodies, x);
  pending_.events.push_back(
      {x.channel_id, fold.events(), x.kind, x.at_ms, offset, bodies.size() - offset});
  auto ends = fold.terminal();
  if ((began || ends || fold.record().status != status ||
       fold.record().round != round) &&
      in_touched_.insert(x.channel_id).second)
    touched_.push_back(x.channel_id);
  if (ends) {
    ended_[x.channel_id] = fold.record();
    open_.erase(i);
  }
  return true;
}

channel_ops channel_book::take() {
  channel_ops out;
  std::swap(out, pending_);
  last_bodies_ = out.bodies.size();
  out.rows.reserve(touched_.size());
  for (const auto& id : touched_) {
    if (auto i = open_.find(id); i != open_.end())
      out.rows.push_back(i->second.open_row());
    else if (auto e = ended_.find(id); e != ended_.end())
      out.rows.push_back(std::move(e->second));
  }
  touched_.clear();
  in_touched_.clear();
  ended_.clear();
  return out;
}

messages::channel_record
current_record(messages::channel_record row,
               const std::vector<messages::channel_event>& events) {
  if (ended(row) || events.empty())
    return row;
  channel_fold fold;
  for (const auto& x : events)
    fold.apply(x);
  return fold.record();
}

bool ended(const messages::channel_record& x) {
  channel_status status;
  return from_string(x.status, status) && channel::is_terminal(status);
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
