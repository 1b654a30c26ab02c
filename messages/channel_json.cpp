// JSON mapping of the channel wire types (docs/protocols/channels.md; declared in
// json.hpp).

#include "messages/json.hpp"
#include "messages/json_fields.hpp"

namespace parley::messages {

using nlohmann::json;

namespace {

constexpr const char* response_type_choices = "offer | negotiate";
constexpr const char* decision_choices = "participate | decline | conditional";
constexpr const char* feedback_choices = "accept | negotiate | withdraw";
constexpr const char* confidence_choices = "high | medium | low";
constexpr const char* event_kind_choices =
    "demand.understood | filter.completed | channel.created | demand.broadcast | "
    "offer.submitted | proposal.distributed | "
    "proposal.feedback | feedback.evaluated | negotiation.round_started | "
    "proposal.finalized | negotiation.force_finalized | negotiation.failed";
constexpr const char* source_choices = "matched | relaxed | fallback";
constexpr const char* channel_decision_choices =
    "finalize | renegotiate | force_finalize | fail";
constexpr const char* member_brain_choices = "rule | script | llm";
constexpr const char* scripted_offer_choices =
    "participate | decline | conditional | silent";
constexpr const char* scripted_feedback_choices =
    "accept | negotiate | withdraw | silent";

} // namespace

PARLEY_ENUM_JSON(offer_response_type, response_type_choices)
PARLEY_ENUM_JSON(offer_decision, decision_choices)
PARLEY_ENUM_JSON(feedback_type, feedback_choices)
PARLEY_ENUM_JSON(confidence_level, confidence_choices)
PARLEY_ENUM_JSON(channel_event_kind, event_kind_choices)
PARLEY_ENUM_JSON(channel_decision, channel_decision_choices)
PARLEY_ENUM_JSON(selection_source, source_choices)
PARLEY_ENUM_JSON(member_brain_kind, member_brain_choices)
PARLEY_ENUM_JSON(scripted_offer, scripted_offer_choices)
PARLEY_ENUM_JSON(scripted_feedback, scripted_feedback_choices)

PARLEY_JSON_FROM_FIELDS(negotiation_point)
PARLEY_JSON_FROM_FIELDS(offer_response)
PARLEY_JSON_FROM_FIELDS(proposal_feedback)
PARLEY_JSON_FROM_FIELDS(assignment)
PARLEY_JSON_FROM_FIELDS(gap)
PARLEY_JSON_FROM_FIELDS(channel_proposal)
PARLEY_JSON_FROM_FIELDS(channel_tally)
PARLEY_JSON_FROM_FIELDS(demand_offer)
PARLEY_JSON_FROM_FIELDS(proposal_review)
PARLEY_JSON_FROM_FIELDS(demand_understanding)
PARLEY_JSON_FROM_FIELDS(channel_profile)
PARLEY_JSON_FROM_FIELDS(candidate)
PARLEY_JSON_FROM_FIELDS(channel_setup)
PARLEY_JSON_FROM_FIELDS(member_round)
PARLEY_JSON_FROM_FIELDS(channel_member_spec)

// The fallback flag is written with the selection; reading ignores it
// (the source says the same).
void to_json(json& j, const candidate_selection& x) {
  write_fields(j, x);
  j["fallback"] = x.fallback();
}

void read(const json& j, const std::string& path, candidate_selection& x) {
  object_reader r{j, path};
  bool fallback = false;
  r.optional("fallback", fallback);
  read_fields(r, x);
  r.done();
}

// The kind is written as "type", the event's name
// (docs/protocols/channels.md, "Events").
void to_json(json& j, const channel_event& x) {
  write_fields(j, x);
  j["type"] = x.kind;
}

void read(const json& j, const std::string& path, channel_event& x) {
  object_reader r{j, path};
  r.required("type", x.kind);
  read_fields(r, x);
  r.done();
}

} // namespace parley::messages
