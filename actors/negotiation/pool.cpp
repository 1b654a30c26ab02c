#include "actors/negotiation/pool.hpp"

#include "actors/negotiation/actor.hpp"

namespace parley::actors::negotiation {

pool::pool(caf::actor_system& sys) : actor_pool(sys, &spawn_negotiation) {}

} // namespace parley::actors::negotiation
