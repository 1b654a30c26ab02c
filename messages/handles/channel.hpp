#pragma once

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// A channel actor (see actors/channel/actor.hpp): its candidates' offers
/// and feedback, and its collection timers.
using channel_actor = caf::typed_actor<caf::reacts_to<messages::offer_response>,
                                       caf::reacts_to<messages::proposal_feedback>,
                                       caf::reacts_to<messages::timer_due>>;

/// What a channel's candidate accepts: the demand, and the round's proposal.
using channel_member_actor =
    caf::typed_actor<caf::reacts_to<messages::demand_offer>,
                     caf::reacts_to<messages::proposal_review>>;

/// Whoever takes an external channel member's answer over the API on its
/// node (actors/channel/external_member.hpp, answer_router.hpp): answers
/// true once its channel took it, false for a replayed message id (E011),
/// or a coded error.
using answer_taker_actor =
    caf::typed_actor<caf::replies_to<messages::offer_response>::with<bool>,
                     caf::replies_to<messages::proposal_feedback>::with<bool>>;

/// Whoever follows a channel's lifecycle (its creator): every event of
/// messages/channel_event.hpp.
using channel_reporter_actor =
    caf::typed_actor<caf::reacts_to<messages::channel_event>>;

} // namespace parley::actors
