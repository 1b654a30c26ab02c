#pragma once

// The channel prompts (docs/protocols/channels.md, "Member brains",
// docs/protocols/channels.md, "Aggregation"): 3, a member's answer to a demand_offer,
// and 5, its feedback on a proposal_review (both the user agent's), and 4, the channel
// admin's aggregation of a round's offers into a proposal; each with its fallback.
// Pure: the caller sends the prompt and hands back the model's text.

#include <string>

#include "actors/channel/aggregation.hpp"
#include "actors/llm/json_prompt.hpp"
#include "messages/channel.hpp"
#include "messages/channel_messages.hpp"
#include "messages/channel_settings.hpp"
#include "messages/demand.hpp"

namespace parley::actors::channel {

/// Prompt 3, in the language of the demand: `member` (its id, name,
/// capabilities and description) is invited by `offer` and asked for an
/// offer_response as a JSON object: response_type, decision, contribution,
/// conditions, reasoning, decline_reason, negotiation_points, confidence.
llm::text_prompt offer_prompt(const messages::channel_profile& member,
                              const messages::demand_offer& offer);

/// Reads the model's answer to prompt 3. Usable: response_type offer |
/// negotiate, decision participate | decline | conditional, confidence an
/// integer within 0..100, reasoning a string, the optional texts strings and
/// lists of the right shape, and what messages::validate(offer_response)
/// asks (a contribution for an offer that takes part, negotiation points
/// for negotiate); other keys are ignored, except inside a negotiation
/// point, which is read strictly as messages' JSON mapping reads it. The ids come from
/// the inputs, never from the model: message_id, the offer's channel_id, the member's
/// agent_id and display_name.
///
/// Otherwise the fallback answer (docs/protocols/channels.md, "Member brains"): an
/// offer to participate, contribution "愿意参与，具体贡献待确认" (in English for an
/// English demand), confidence 50, marked `fallback`, with the reason.
llm::outcome<messages::offer_response>
read_offer_response(const std::string& answer, const messages::channel_profile& member,
                    const messages::demand_offer& offer, const std::string& message_id);

/// Prompt 5, in the language of the proposal's objective and summary:
/// `member` reviews the round's proposal (and its own assignment, if it has
/// one) and is asked for feedback_type, adjustment_request and reasoning.
llm::text_prompt feedback_prompt(const messages::channel_profile& member,
                                 const messages::proposal_review& review);

/// Reads the model's answer to prompt 5. Usable: feedback_type accept |
/// negotiate | withdraw, reasoning a string, and for negotiate a non-empty
/// adjustment_request (what the next round's proposal should change); the
/// ids come from the inputs as for read_offer_response.
///
/// Otherwise the fallback feedback (docs/protocols/channels.md, "Member brains"):
/// accept, reasoning "系统繁忙，默认接受" (in English for an English proposal), marked
/// `fallback`, with the reason.
llm::outcome<messages::proposal_feedback>
read_feedback(const std::string& answer, const messages::channel_profile& member,
              const messages::proposal_review& review, const std::string& message_id);

/// Prompt 4, in the language of `in.objective`: the round's offers (who, what
/// they decided and contribute, their conditions and negotiation points)
/// and a request for a proposal as a JSON object: summary, objective,
/// assignments, timeline, rationale, gaps, confidence.
llm::text_prompt aggregation_prompt(const aggregation_input& in);

/// Reads the model's answer to prompt 4. Usable: a non-empty summary,
/// confidence high | medium | low, optional objective (default
/// `in.objective`), rationale, timeline object and gaps (each with a
/// non-empty description, read strictly), and assignments that each name, once, an
/// agent whose offer takes part (not decline), with a non-empty role and dependencies
/// among the assigned agents; at least one assignment when any offer takes part. The
/// proposal's id, demand, version (= round) and created_at are aggregate()'s; display
/// names and is_confirmed (participate: confirmed, conditional: not) come from the
/// offers, never from the model. The result must pass messages::validate(proposal,
/// settings.max_rounds).
///
/// Otherwise the aggregation's fallback (docs/protocols/channels.md, "Aggregation"), a
/// plain merge: aggregate(in, settings) marked `fallback`, with the reason.
llm::outcome<messages::channel_proposal>
read_proposal(const std::string& answer, const aggregation_input& in,
              const messages::channel_settings& settings);

} // namespace parley::actors::channel
