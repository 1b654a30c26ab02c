#pragma once

#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

#include "caf/abstract_actor.hpp"
#include "caf/actor_cast.hpp"
#include "caf/exit_reason.hpp"
#include "caf/fwd.hpp"
#include "caf/send.hpp"

namespace parley::actors {

/// The actors of one kind on one node that run nothing at the moment, for the
/// next negotiation, ballot or auction to open in.
///
/// Why not an actor per negotiation (or ballot), spawned and ended: CAF 0.17
/// makes every actor that ends call into its clock thread (a lock, and a
/// wake-up of that thread), which at tens of thousands a second cost a fifth
/// of the CPU; and a pending timer would keep an ended actor's memory until
/// it fires. An actor whose work ends goes back here and the next one opens
/// in it, so a node keeps about as many actors of a kind as it has of that
/// work running; a late message or timer meant for the earlier work is told
/// apart (by id or generation) and dropped.
///
/// Shared by the actors of a node, which call it from their own threads: a
/// short lock guards the list.
template <class Handle>
class actor_pool : public std::enable_shared_from_this<actor_pool<Handle>> {
public:
  /// Spawns an actor of the kind that goes back to `home` when its work ends.
  using spawn_function = Handle (*)(caf::actor_system&, std::weak_ptr<actor_pool>);

  actor_pool(caf::actor_system& sys, spawn_function spawn) : sys_(sys), spawn_(spawn) {}

  /// An idle actor, or a new one.
  Handle acquire() {
    {
      std::lock_guard<std::mutex> guard{mtx_};
      if (!idle_.empty()) {
        auto x = std::move(idle_.back());
        idle_.pop_back();
        return x;
      }
    }
    auto x = spawn_(sys_, this->weak_from_this());
    std::lock_guard<std::mutex> guard{mtx_};
    spawned_.push_back(x);
    return x;
  }

  /// `x`'s work ended: it can take the next.
  void release(Handle x) {
    std::lock_guard<std::mutex> guard{mtx_};
    idle_.push_back(std::move(x));
  }

  /// Stops the idle actors and forgets them (their node is stopping, or its
  /// callers went away; the busy ones stop with what they run, e.g. a
  /// negotiation with its room).
  void clear() {
    std::vector<Handle> idle;
    {
      std::lock_guard<std::mutex> guard{mtx_};
      idle.swap(idle_);
      std::unordered_set<const caf::abstract_actor*> stopping;
      for (const auto& x : idle)
        stopping.insert(caf::actor_cast<caf::abstract_actor*>(x));
      spawned_.erase(
          std::remove_if(spawned_.begin(), spawned_.end(),
                         [&](const Handle& x) {
                           return stopping.count(
                                      caf::actor_cast<caf::abstract_actor*>(x)) > 0;
                         }),
          spawned_.end());
    }
    for (const auto& x : idle)
      caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  }

  /// Stops every actor of the pool, idle or busy (a ballot waiting for its
  /// window would otherwise wait for a timer service that has stopped).
  void stop_all() {
    std::vector<Handle> all;
    {
      std::lock_guard<std::mutex> guard{mtx_};
      idle_.clear();
      all.swap(spawned_);
    }
    for (const auto& x : all)
      caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  }

private:
  caf::actor_system& sys_;
  spawn_function spawn_;
  std::mutex mtx_;
  std::vector<Handle> idle_;
  /// Every actor it spawned, for `stop_all`.
  std::vector<Handle> spawned_;
};

/// Sends `self`, whose work ended, back to `home`; stops it when the pool is
/// gone (its node is stopping).
template <class Handle, class Self>
void go_home(Self* self, const std::weak_ptr<actor_pool<Handle>>& home) {
  if (auto pool = home.lock())
    pool->release(caf::actor_cast<Handle>(self));
  else
    self->quit();
}

} // namespace parley::actors
