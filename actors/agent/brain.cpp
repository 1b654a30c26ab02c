#include "actors/agent/brain.hpp"

#include "actors/agent/rule_brain.hpp"
#include "actors/agent/script_brain.hpp"
#include "actors/agent/strategy_brain.hpp"

namespace parley::actors::agent {

std::unique_ptr<brain> make_brain(const messages::brain_spec& spec,
                                  const messages::agent_profile& profile) {
  if (spec.kind == messages::brain_kind::script)
    return std::make_unique<script_brain>(spec.script);
  if (spec.kind == messages::brain_kind::strategy)
    return std::make_unique<strategy_brain>(spec.strategy, spec.side, profile,
                                            spec.seed);
  return std::make_unique<rule_brain>(spec.side, profile);
}

} // namespace parley::actors::agent
