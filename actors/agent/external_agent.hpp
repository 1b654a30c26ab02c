#pragma once

#include "caf/fwd.hpp"

#include "actors/agent/actor.hpp"
#include "messages/agent_profile.hpp"
#include "messages/handles/agent.hpp"

namespace parley::actors::agent {

/// Spawns an agent whose brain is outside the runtime (brain `external`): a
/// client of the HTTP API decides for it and sends its moves through the API
/// (actors/gateway/), which reads its pending turns from the negotiations'
/// records. The actor itself only takes part: `initiate_negotiation` asks
/// the room to open the negotiation (as every agent does), a `barrier` goes
/// on to the bus, and whatever the negotiations and rooms tell it (offers,
/// outcomes, transcript lines, invitations to vote or bid) needs no answer
/// from it: the API client answers, or the deadline does.
agent_actor spawn_external_agent(caf::actor_system& sys, messages::agent_spec spec,
                                 peers with);

} // namespace parley::actors::agent
