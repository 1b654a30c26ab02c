#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "caf/fwd.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "service/message.hpp"

namespace parley::service {

/// A long-lived actor that sends the requests of its queue when told to
/// `drain`, and refuses those whose deadline passed on `timeout` (its one
/// timer).
using requester_actor = caf::typed_actor<caf::reacts_to<messages::drain_atom>,
                                         caf::reacts_to<caf::timeout_atom>>;

/// A fixed set of long-lived requester actors through which the HTTP routes
/// ask the runtime: no actor is spawned per request. A job (typically a
/// `request(...).then(...)`) waits in one actor's queue; the actor is woken
/// by one `drain` message for every batch that arrives while it is idle, so
/// the I/O threads never wait for an actor and never block.
///
/// Each request is answered within the pool's timeout: its requester holds
/// its deadline (pending_answers.hpp), so the request itself goes out
/// without a timer of its own (`caf::infinite`), and one timer per requester,
/// for the earliest deadline, answers whatever is late with E030 (the
/// answer of a CAF request timeout). A result that comes later is dropped;
/// a destination that never answers at all (it skips the message) keeps the
/// request's handler in its requester until the pool ends.
class requester_pool {
public:
  using pointer = requester_actor::pointer;

  /// One actor and its queue (requesters.cpp).
  struct lane;

  /// A job's claim on its request's answer.
  class slot {
  public:
    slot(std::shared_ptr<lane> owner, std::uint64_t ticket)
        : owner_(std::move(owner)), ticket_(ticket) {}

    /// The request's answer, which the caller now gives; empty when the
    /// deadline answered it already. Only on the requester's thread.
    respond_function take() const;

  private:
    std::shared_ptr<lane> owner_;
    std::uint64_t ticket_;
  };

  /// Sends a request from the requester `self`; its result or error answers
  /// through `answer`.
  using job = std::function<void(pointer self, slot answer)>;

  /// Spawns `size` requester actors (at least one); each request is
  /// answered within `timeout`.
  requester_pool(caf::actor_system& sys, std::size_t size,
                 std::chrono::milliseconds timeout);

  /// Stops the actors and waits until they are gone, so that no answer
  /// comes after it (not on a scheduler thread); jobs still queued and
  /// requests still out are dropped unanswered.
  ~requester_pool();

  requester_pool(const requester_pool&) = delete;
  requester_pool& operator=(const requester_pool&) = delete;

  /// Queues `send` for one of the actors (in turn), which runs it on its
  /// thread; `respond` is called once: through the job's slot, or with E030
  /// at the deadline.
  void submit(respond_function respond, job send);

private:
  caf::actor_system& sys_;
  std::vector<std::shared_ptr<lane>> lanes_;
  std::atomic<std::size_t> next_{0};
};

} // namespace parley::service
