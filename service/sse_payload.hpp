#pragma once

#include <nlohmann/json_fwd.hpp>

#include "messages/channel_event.hpp"

namespace parley::service {

/// A channel event's `payload` on an event stream: the event as messages/json.hpp
/// writes it, with the flat fields of its kind (docs/protocols/channels.md, "Events")
/// added at the top (demand.understood: surface_demand, capability_tags, confidence;
/// filter.completed: candidates_count and candidates; channel.created:
/// participants_count; offer.submitted: agent_id, display_name, response_type,
/// decision, contribution, negotiation_summary; proposal.feedback: agent_id,
/// feedback_type; feedback.evaluated: the tally's counts, `rejects` always 0 (no
/// feedback type is a reject: the original specification counts them but never makes
/// one), accept_rate and decision; force_finalized: confirmed and optional
/// participants, rounds_taken, final_proposal; proposal.finalized: final_proposal;
/// failed: accept_rate and last_proposal).
nlohmann::json channel_payload(const messages::channel_event& x);

} // namespace parley::service
