#include "actors/gateway/owner_cache.hpp"

#include <iterator>

namespace parley::actors::gateway {

const std::string* owner_cache::find(const std::string& id) const {
  auto i = by_id_.find(id);
  return i == by_id_.end() ? nullptr : &i->second;
}

void owner_cache::remember(const std::string& id, const std::string& address) {
  // Cleared rather than evicted one by one: the store still answers for
  // what was dropped, at the cost of its two reads once per negotiation.
  if (by_id_.size() >= limit_ && by_id_.count(id) == 0)
    by_id_.clear();
  by_id_[id] = address;
}

void owner_cache::forget(const std::string& id) {
  by_id_.erase(id);
}

void owner_cache::forget_node(const std::string& address) {
  for (auto i = by_id_.begin(); i != by_id_.end();)
    i = i->second == address ? by_id_.erase(i) : std::next(i);
}

} // namespace parley::actors::gateway
