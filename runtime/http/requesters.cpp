#include "runtime/http/requesters.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

namespace parley::runtime::http {

struct requester_pool::lane {
  std::mutex mtx;
  std::vector<job> jobs;
  /// A `drain` is on its way: jobs queued meanwhile go with it.
  bool woken = false;
  requester_actor actor;
};

namespace {

requester_actor::behavior_type requester(requester_actor::pointer self,
                                         std::shared_ptr<requester_pool::lane> queue) {
  return {
      [self, queue](messages::drain_atom) {
        std::vector<requester_pool::job> batch;
        {
          std::lock_guard<std::mutex> guard{queue->mtx};
          batch.swap(queue->jobs);
          queue->woken = false;
        }
        for (auto& f : batch)
          f(self);
      },
  };
}

} // namespace

requester_pool::requester_pool(caf::actor_system& sys, std::size_t size) : sys_(sys) {
  size = std::max<std::size_t>(size, 1);
  for (std::size_t i = 0; i < size; ++i) {
    auto x = std::make_shared<lane>();
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

void requester_pool::submit(job f) {
  auto& x = *lanes_[next_++ % lanes_.size()];
  bool wake = false;
  {
    std::lock_guard<std::mutex> guard{x.mtx};
    x.jobs.push_back(std::move(f));
    wake = !x.woken;
    x.woken = true;
  }
  if (wake)
    caf::anon_send(x.actor, messages::drain_atom::value);
}

} // namespace parley::runtime::http
