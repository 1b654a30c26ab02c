#include "actors/negotiation/pool.hpp"

#include <utility>

#include "caf/send.hpp"

#include "actors/negotiation/actor.hpp"

namespace parley::actors::negotiation {

negotiation_actor pool::acquire() {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    if (!idle_.empty()) {
      auto x = std::move(idle_.back());
      idle_.pop_back();
      return x;
    }
  }
  return spawn_negotiation(sys_, weak_from_this());
}

void pool::release(negotiation_actor x) {
  std::lock_guard<std::mutex> guard{mtx_};
  idle_.push_back(std::move(x));
}

void pool::clear() {
  std::vector<negotiation_actor> idle;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    idle.swap(idle_);
  }
  for (const auto& x : idle)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
}

} // namespace parley::actors::negotiation
