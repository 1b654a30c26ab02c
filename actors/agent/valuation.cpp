#include "actors/agent/valuation.hpp"

#include "actors/agent/rule_brain.hpp"

namespace parley::actors::agent {

messages::shared<messages::party_valuation>
valuation_of(const messages::agent_spec& x) {
  if (!x.profile.utility)
    return {};
  return messages::shared<messages::party_valuation>{messages::party_valuation{
      *x.profile.utility, resolve_side(x.brain.side, x.profile.role)}};
}

} // namespace parley::actors::agent
