#include "service/pending_answers.hpp"

#include <utility>

namespace parley::service {

std::uint64_t pending_answers::open(respond_function respond, time_point deadline) {
  auto ticket = deadlines_.push(deadline, {});
  owed_.emplace(ticket, std::move(respond));
  return ticket;
}

respond_function pending_answers::take(std::uint64_t ticket) {
  respond_function out;
  auto i = owed_.find(ticket);
  if (i == owed_.end())
    return out;
  out = std::move(i->second);
  owed_.erase(i);
  deadlines_.trim(owing());
  return out;
}

std::vector<respond_function> pending_answers::take_due(time_point now) {
  std::vector<respond_function> out;
  deadlines_.take_due(now, owing(), [&](std::monostate, std::uint64_t t) {
    auto i = owed_.find(t);
    out.push_back(std::move(i->second));
    owed_.erase(i);
  });
  return out;
}

std::optional<pending_answers::time_point> pending_answers::next_deadline() const {
  return deadlines_.next();
}

} // namespace parley::service
