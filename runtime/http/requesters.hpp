#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "caf/fwd.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"

namespace parley::runtime::http {

/// A long-lived actor that runs the jobs of its queue when told to `drain`.
using requester_actor = caf::typed_actor<caf::reacts_to<messages::drain_atom>>;

/// A fixed set of long-lived requester actors through which the HTTP routes
/// ask the runtime: no actor is spawned per request. A job (typically a
/// `request(...).then(...)`) waits in one actor's queue; the actor is woken
/// by one `drain` message for every batch that arrives while it is idle, so
/// the I/O threads never wait for an actor and never block.
class requester_pool {
public:
  using pointer = requester_actor::pointer;
  using job = std::function<void(pointer)>;

  /// Spawns `size` requester actors (at least one).
  requester_pool(caf::actor_system& sys, std::size_t size);

  /// Stops the actors and waits until they are gone, so that no answer
  /// comes after it (not on a scheduler thread); jobs still queued and
  /// requests still out are dropped unanswered.
  ~requester_pool();

  requester_pool(const requester_pool&) = delete;
  requester_pool& operator=(const requester_pool&) = delete;

  /// Queues `f` for one of the actors (in turn); runs on its thread.
  void submit(job f);

  /// One actor and its queue (requesters.cpp).
  struct lane;

private:
  caf::actor_system& sys_;
  std::vector<std::shared_ptr<lane>> lanes_;
  std::atomic<std::size_t> next_{0};
};

} // namespace parley::runtime::http
