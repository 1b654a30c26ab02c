#pragma once

#include <cstdint>

#include "caf/fwd.hpp"

namespace parley::runtime {

/// How an actor system for Parley is set up.
struct system_options {
  /// Run on CAF's test coordinator: one thread, virtual time that jumps to the
  /// next due timer (deterministic; a 120 s timeout takes microseconds).
  bool simulated_time = false;
  /// Scheduler threads; 0 means one per core.
  std::int32_t scheduler_threads = 0;
};

/// Prepares `cfg`: registers every Parley wire type and sets the scheduler.
void configure(caf::actor_system_config& cfg, const system_options& options);

} // namespace parley::runtime
