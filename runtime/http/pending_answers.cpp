#include "runtime/http/pending_answers.hpp"

namespace parley::runtime::http {

std::uint64_t pending_answers::open(respond_function respond, time_point deadline) {
  auto ticket = ++next_;
  owed_.emplace(ticket, std::move(respond));
  deadlines_.emplace_back(deadline, ticket);
  return ticket;
}

respond_function pending_answers::take(std::uint64_t ticket) {
  respond_function out;
  auto i = owed_.find(ticket);
  if (i == owed_.end())
    return out;
  out = std::move(i->second);
  owed_.erase(i);
  trim();
  return out;
}

std::vector<respond_function> pending_answers::take_due(time_point now) {
  std::vector<respond_function> out;
  while (!deadlines_.empty() && deadlines_.front().first <= now) {
    auto i = owed_.find(deadlines_.front().second);
    if (i != owed_.end()) {
      out.push_back(std::move(i->second));
      owed_.erase(i);
    }
    deadlines_.pop_front();
  }
  trim();
  return out;
}

std::optional<pending_answers::time_point> pending_answers::next_deadline() const {
  if (deadlines_.empty())
    return std::nullopt;
  return deadlines_.front().first;
}

void pending_answers::trim() {
  while (!deadlines_.empty() && owed_.count(deadlines_.front().second) == 0)
    deadlines_.pop_front();
}

} // namespace parley::runtime::http
