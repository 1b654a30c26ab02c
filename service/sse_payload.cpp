#include "service/sse_payload.hpp"

#include <string>

#include "messages/json.hpp"

namespace parley::service {

using messages::channel_event_kind;
using nlohmann::json;

namespace {

/// The one-line summary of a negotiate answer: its points.
std::string negotiation_summary(const messages::offer_response& x) {
  std::string out;
  for (const auto& p : x.negotiation_points) {
    if (!out.empty())
      out += "; ";
    out += p.aspect + ": " + p.desired_value;
  }
  return out.empty() ? x.reasoning : out;
}

void add_offer(json& j, const messages::offer_response& x) {
  j["agent_id"] = x.agent_id;
  j["display_name"] = x.display_name;
  j["response_type"] = x.response_type;
  j["decision"] = x.decision;
  if (!x.contribution.empty())
    j["contribution"] = x.contribution;
  if (x.response_type == messages::offer_response_type::negotiate)
    j["negotiation_summary"] = negotiation_summary(x);
}

void add_tally(json& j, const messages::channel_tally& x) {
  j["accepts"] = x.accepts;
  j["rejects"] = 0;
  j["negotiates"] = x.negotiates;
  j["withdraws"] = x.withdraws;
  j["accept_rate"] = x.accept_rate;
  j["decision"] = x.decision;
}

} // namespace

json channel_payload(const messages::channel_event& x) {
  json j = x;
  switch (x.kind) {
  case channel_event_kind::demand_understood:
    if (x.understanding) {
      j["surface_demand"] = x.understanding->surface_demand;
      j["capability_tags"] = x.understanding->capability_tags;
      j["confidence"] = x.understanding->confidence;
    }
    break;
  case channel_event_kind::filter_completed:
    if (x.selection) {
      auto candidates = json::array();
      for (const auto& c : x.selection->candidates)
        candidates.push_back({{"agent_id", c.agent_id},
                              {"display_name", c.display_name},
                              {"reason", c.reason}});
      j["candidates_count"] = candidates.size();
      j["candidates"] = std::move(candidates);
    }
    break;
  case channel_event_kind::created:
    j["participants_count"] = x.setup ? x.setup->candidates.size() : x.agents.size();
    break;
  case channel_event_kind::offer_submitted:
    if (x.offer)
      add_offer(j, *x.offer);
    break;
  case channel_event_kind::proposal_feedback:
    if (x.feedback) {
      j["agent_id"] = x.feedback->agent_id;
      j["feedback_type"] = x.feedback->feedback_type;
    }
    break;
  case channel_event_kind::feedback_evaluated:
    if (x.tally)
      add_tally(j, *x.tally);
    break;
  case channel_event_kind::force_finalized:
    if (x.proposal) {
      j["confirmed_participants"] = x.proposal->confirmed_participants;
      j["optional_participants"] = x.proposal->optional_participants;
      j["final_proposal"] = *x.proposal;
    }
    j["rounds_taken"] = x.round;
    break;
  case channel_event_kind::finalized:
    if (x.proposal)
      j["final_proposal"] = *x.proposal;
    break;
  case channel_event_kind::failed:
    if (x.tally)
      j["accept_rate"] = x.tally->accept_rate;
    if (x.proposal)
      j["last_proposal"] = *x.proposal;
    break;
  default:
    break;
  }
  return j;
}

} // namespace parley::service
