#include "runtime/node.hpp"

#include <cstddef>

#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"

#include "messages/type_ids.hpp"

namespace parley::runtime {

void configure(caf::actor_system_config& cfg, const system_options& options) {
  messages::register_types(cfg);
  if (options.simulated_time)
    cfg.set("scheduler.policy", caf::atom("testing"));
  else if (options.scheduler_threads > 0)
    cfg.set("scheduler.max-threads",
            static_cast<std::size_t>(options.scheduler_threads));
}

} // namespace parley::runtime
