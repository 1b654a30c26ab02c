#pragma once

#include <cstddef>

#include "caf/execution_unit.hpp"
#include "caf/logger.hpp"
#include "caf/resumable.hpp"

namespace parley::actors {

/// Base of an actor kind whose actors share one behavior.
///
/// CAF 0.17 builds a behavior for every actor: about 200 bytes plus 33 per
/// handler, more than an idle agent's or room's own state, for each of the
/// millions a load test keeps. An actor kind `Impl` deriving from this builds
/// its behavior once (`Impl::make_shared_behavior()`, handlers without
/// captures) and every actor of the kind runs it. A handler finds the actor
/// it runs for with `running()`: CAF runs an actor on one thread at a time,
/// and nothing else on that thread while it runs, so the actor whose
/// `resume` is on the stack is the one. `Impl::start()` runs once, before the
/// first message (what a function-based actor does before it returns its
/// behavior).
template <class Impl, class Base> class shared_behavior_actor : public Base {
public:
  using Base::Base;

  /// The actor of this kind that the calling thread runs now.
  static Impl& running() noexcept { return *running_; }

  caf::resumable::resume_result resume(caf::execution_unit* ctx,
                                       std::size_t max_throughput) override {
    // Debian's CAF is built with its logger, which looks up the running
    // actor's id in a map under a lock shared by every scheduler thread on
    // each resume (7 % of W2's CPU). Parley does not use CAF's logger: this
    // thread stops asking it until something re-registers it (a spawn).
    if (caf::logger::current_logger() != nullptr)
      caf::logger::set_current_actor_system(nullptr);
    auto* outer = running_;
    running_ = static_cast<Impl*>(this);
    auto result = Base::resume(ctx, max_throughput);
    running_ = outer;
    return result;
  }

protected:
  typename Base::behavior_type make_behavior() override {
    static const typename Base::behavior_type shared = Impl::make_shared_behavior();
    static_cast<Impl*>(this)->start();
    return shared;
  }

private:
  static inline thread_local Impl* running_ = nullptr;
};

} // namespace parley::actors
