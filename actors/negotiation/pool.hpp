#pragma once

#include "actors/common/actor_pool.hpp"
#include "messages/handles/negotiation.hpp"

namespace parley::actors::negotiation {

/// The negotiation actors of one node (see actors/common/actor_pool.hpp):
/// its rooms open each negotiation in one.
class pool : public actor_pool<negotiation_actor> {
public:
  explicit pool(caf::actor_system& sys);
};

} // namespace parley::actors::negotiation
