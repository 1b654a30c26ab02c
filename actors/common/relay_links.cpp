#include "actors/common/relay_links.hpp"

#include <nlohmann/json.hpp>

#include "messages/error_code.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors {

move_relay_actor relay_links::relay_at(const std::string& address) const {
  auto i = links_.find(address);
  return i == links_.end() ? move_relay_actor{} : i->second.relay;
}

std::pair<move_relay_actor, bool> relay_links::keep(const std::string& address,
                                                    move_relay_actor relay) {
  auto& kept = links_[address].relay;
  if (kept)
    return {kept, false};
  kept = std::move(relay);
  return {kept, true};
}

std::uint64_t relay_links::wait(const std::string& address, on_lost lost) {
  auto n = ++sent_;
  links_[address].waiting.emplace(n, std::move(lost));
  return n;
}

bool relay_links::take(const std::string& address, std::uint64_t n) {
  auto i = links_.find(address);
  return i != links_.end() && i->second.waiting.erase(n) > 0;
}

void relay_links::lose(const std::string& address, const std::string& why) {
  auto i = links_.find(address);
  if (i == links_.end())
    return;
  auto waiting = std::move(i->second.waiting);
  if (lost_node_)
    lost_node_(address);
  // `address` may be the erased key's: nothing reads it after the erase.
  links_.erase(i);
  for (auto& [n, lost] : waiting)
    lost(why);
}

void relay_links::on_lose(std::function<void(const std::string& address)> f) {
  lost_node_ = std::move(f);
}

bool relay_links::lose(const caf::actor_addr& source, const std::string& why) {
  for (const auto& [address, link] : links_)
    if (link.relay.address() == source) {
      auto copy = address; // lose() erases the key
      lose(copy, why);
      return true;
    }
  return false;
}

caf::error relay_unreachable(const std::string& what, nlohmann::json details,
                             const std::string& address, const std::string& why) {
  details["owner"] = address;
  return messages::make_error(messages::error_code::overloaded,
                              what + " on the node at " + address +
                                  ", which cannot be reached (" + why + "); retry",
                              details.dump());
}

} // namespace parley::actors
