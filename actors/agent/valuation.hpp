#pragma once

#include "messages/agent_profile.hpp"
#include "messages/shared.hpp"

namespace parley::actors::agent {

/// How the agent `x` values outcomes, for the rooms it joins
/// (`messages::room_member::valuation`): its profile's utility and its
/// side (the brain's, or the one its role suggests); none without a utility.
messages::shared<messages::party_valuation> valuation_of(const messages::agent_spec& x);

} // namespace parley::actors::agent
