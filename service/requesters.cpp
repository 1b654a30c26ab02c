#include "service/requesters.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "service/errors.hpp"
#include "service/pending_answers.hpp"

namespace parley::service {

struct requester_pool::lane {
  explicit lane(std::chrono::milliseconds t) : timeout(t) {}

  const std::chrono::milliseconds timeout;
  /// Filled by the I/O threads, emptied by the actor.
  std::mutex mtx;
  std::vector<std::pair<respond_function, job>> jobs;
  /// A `drain` is on its way: jobs queued meanwhile go with it.
  bool woken = false;
  requester_actor actor;
  /// The rest only on the actor's thread: the answers it owes, and whether
  /// its timer is set.
  pending_answers owed;
  bool timer_set = false;
};

respond_function requester_pool::slot::take() const {
  return owner_->owed.take(ticket_);
}

namespace {

/// Sets the requester's timer for its earliest deadline, unless it is set.
void set_timer(requester_pool::pointer self, requester_pool::lane& x) {
  if (x.timer_set)
    return;
  auto next = x.owed.next_deadline();
  if (!next)
    return;
  x.timer_set = true;
  auto now = self->clock().now();
  auto wait = *next > now ? *next - now : caf::actor_clock::duration_type::zero();
  self->delayed_send(self, wait, caf::timeout_atom::value);
}

requester_actor::behavior_type requester(requester_pool::pointer self,
                                         std::shared_ptr<requester_pool::lane> queue) {
  return {
      [self, queue](messages::drain_atom) {
        std::vector<std::pair<respond_function, requester_pool::job>> batch;
        {
          std::lock_guard<std::mutex> guard{queue->mtx};
          batch.swap(queue->jobs);
          queue->woken = false;
        }
        auto deadline = self->clock().now() + queue->timeout;
        for (auto& [respond, send] : batch) {
          auto ticket = queue->owed.open(std::move(respond), deadline);
          send(self, requester_pool::slot{queue, ticket});
        }
        set_timer(self, *queue);
      },
      [self, queue](caf::timeout_atom) {
        queue->timer_set = false;
        for (auto& respond : queue->owed.take_due(self->clock().now()))
          respond(error_response(caf::make_error(caf::sec::request_timeout)));
        set_timer(self, *queue);
      },
  };
}

} // namespace

requester_pool::requester_pool(caf::actor_system& sys, std::size_t size,
                               std::chrono::milliseconds timeout)
    : sys_(sys) {
  size = std::max<std::size_t>(size, 1);
  for (std::size_t i = 0; i < size; ++i) {
    auto x = std::make_shared<lane>(timeout);
    x->actor = sys.spawn(requester, x);
    lanes_.push_back(std::move(x));
  }
}

requester_pool::~requester_pool() {
  std::vector<requester_actor> actors;
  caf::scoped_actor self{sys_};
  for (const auto& x : lanes_) {
    self->send_exit(x->actor, caf::exit_reason::user_shutdown);
    actors.push_back(x->actor);
  }
  self->wait_for(actors);
}

void requester_pool::submit(respond_function respond, job send) {
  auto& x = *lanes_[next_++ % lanes_.size()];
  bool wake = false;
  {
    std::lock_guard<std::mutex> guard{x.mtx};
    x.jobs.emplace_back(std::move(respond), std::move(send));
    wake = !x.woken;
    x.woken = true;
  }
  if (wake)
    caf::anon_send(x.actor, messages::drain_atom::value);
}

} // namespace parley::service
