#include "actors/gateway/ledger.hpp"

#include <algorithm>
#include <utility>

#include "actors/negotiation/replay.hpp"

namespace parley::actors::gateway {

const messages::negotiation_record*
ledger::apply(const messages::negotiation_event& x) {
  auto i = entries_.find(x.negotiation_id);
  if (i == entries_.end()) {
    if (x.kind != messages::negotiation_event_kind::started || !x.record)
      return nullptr;
    i = entries_.emplace(x.negotiation_id, entry{}).first;
  }
  auto& record = i->second.record;
  auto was_terminal = !record.id.empty() && messages::is_terminal(record.status);
  messages::apply(record, x);
  if (!was_terminal && messages::is_terminal(record.status)) {
    ended_.push_back(record.id);
    while (ended_.size() > ended_limit_)
      forget_oldest_ended();
  }
  return &entries_.at(x.negotiation_id).record;
}

void ledger::restore(messages::negotiation_record x) {
  auto id = x.id;
  auto rounds = static_cast<std::int32_t>(x.rounds.size());
  entries_[id] = entry{std::move(x), rounds, false};
}

void ledger::mark_committed(const std::string& id, std::int32_t rounds, bool ended) {
  auto i = entries_.find(id);
  if (i == entries_.end())
    return;
  auto& e = i->second;
  e.committed_rounds = std::max(e.committed_rounds, rounds);
  e.committed_end = e.committed_end || ended;
}

bool ledger::committed(const std::string& id) const {
  auto i = entries_.find(id);
  if (i == entries_.end())
    return false;
  const auto& e = i->second;
  return static_cast<std::int32_t>(e.record.rounds.size()) <= e.committed_rounds &&
         (e.committed_end || !messages::is_terminal(e.record.status));
}

void ledger::forget_oldest_ended() {
  entries_.erase(ended_.front());
  ended_.pop_front();
}

const messages::negotiation_record* ledger::find(const std::string& id) const {
  auto i = entries_.find(id);
  return i != entries_.end() ? &i->second.record : nullptr;
}

std::string ledger::to_move(const messages::negotiation_record& x) {
  if (messages::is_terminal(x.status) || x.rounds.empty())
    return {};
  return x.rounds.back().from_agent == x.initiator ? x.responder : x.initiator;
}

std::vector<messages::negotiation_record>
ledger::awaiting(const std::string& agent) const {
  std::vector<messages::negotiation_record> result;
  for (const auto& item : entries_)
    if (to_move(item.second.record) == agent)
      result.push_back(item.second.record);
  std::sort(result.begin(), result.end(), [](const auto& x, const auto& y) {
    return x.created_at != y.created_at ? x.created_at < y.created_at : x.id < y.id;
  });
  return result;
}

std::optional<messages::negotiation_record>
ledger::result_of(const std::string& id, const std::string& message_id) const {
  auto i = entries_.find(id);
  if (i == entries_.end())
    return std::nullopt;
  return negotiation::record_after(i->second.record, message_id);
}

} // namespace parley::actors::gateway
