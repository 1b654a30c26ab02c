#pragma once

// JSON mapping of every wire type, with snake_case field names. `to_json` is
// found by nlohmann::json; `read` parses strictly and names the path of any
// problem (see json_reader.hpp). Most are defined by the field list of the
// type's `inspect` (json_fields.hpp); the rest say why they are written by
// hand.

#include <nlohmann/json.hpp>

#include "messages/channel_member.hpp"
#include "messages/channel_settings.hpp"
#include "messages/json_reader.hpp"
#include "messages/llm_json.hpp"
#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"
#include "messages/api.hpp"
#include "messages/channel.hpp"
#include "messages/channel_event.hpp"
#include "messages/channel_messages.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/deal_score.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/event_sink.hpp"
#include "messages/events.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/negotiation_settings.hpp"
#include "messages/proposal.hpp"
#include "messages/store.hpp"

namespace parley::messages {

#define PARLEY_JSON_MAPPING(type)                                                      \
  void to_json(nlohmann::json& j, const type& x);                                      \
  void read(const nlohmann::json& j, const std::string& path, type& x);

PARLEY_JSON_MAPPING(json_object)
PARLEY_JSON_MAPPING(proposal)
PARLEY_JSON_MAPPING(negotiation_round)
PARLEY_JSON_MAPPING(incentive_split)
PARLEY_JSON_MAPPING(utility_pair)
PARLEY_JSON_MAPPING(offer_utilities)
PARLEY_JSON_MAPPING(deal_score)
PARLEY_JSON_MAPPING(negotiation_record)
PARLEY_JSON_MAPPING(negotiation_settings)
PARLEY_JSON_MAPPING(channel_settings)
PARLEY_JSON_MAPPING(agent_proposal)
PARLEY_JSON_MAPPING(agent_counter)
PARLEY_JSON_MAPPING(agent_accept)
PARLEY_JSON_MAPPING(agent_reject)
PARLEY_JSON_MAPPING(answer_terms)
PARLEY_JSON_MAPPING(start_negotiation)
PARLEY_JSON_MAPPING(negotiation_opened)
PARLEY_JSON_MAPPING(negotiation_opening)
PARLEY_JSON_MAPPING(negotiation_peers)
PARLEY_JSON_MAPPING(open_negotiation)
PARLEY_JSON_MAPPING(resume_negotiation)
PARLEY_JSON_MAPPING(room_member)
PARLEY_JSON_MAPPING(join_room)
PARLEY_JSON_MAPPING(arm_timer)
PARLEY_JSON_MAPPING(timer_tick)
PARLEY_JSON_MAPPING(start_deadline)
PARLEY_JSON_MAPPING(topic_set)
PARLEY_JSON_MAPPING(event_sink)
PARLEY_JSON_MAPPING(room_spec)
PARLEY_JSON_MAPPING(barrier)
PARLEY_JSON_MAPPING(initiate_negotiation)
PARLEY_JSON_MAPPING(negotiation_event)
PARLEY_JSON_MAPPING(problem_event)
PARLEY_JSON_MAPPING(run_summary)
PARLEY_JSON_MAPPING(amount_issue)
PARLEY_JSON_MAPPING(term_issue)
PARLEY_JSON_MAPPING(outcome_domain)
PARLEY_JSON_MAPPING(utility_spec)
PARLEY_JSON_MAPPING(party_valuation)
PARLEY_JSON_MAPPING(agent_preferences)
PARLEY_JSON_MAPPING(agent_profile)
PARLEY_JSON_MAPPING(proposal_patch)
PARLEY_JSON_MAPPING(script_reply)
PARLEY_JSON_MAPPING(brain_spec)
PARLEY_JSON_MAPPING(agent_spec)
PARLEY_JSON_MAPPING(timer_due)
PARLEY_JSON_MAPPING(decision)
PARLEY_JSON_MAPPING(deferred_reply)
PARLEY_JSON_MAPPING(error_code)
PARLEY_JSON_MAPPING(negotiation_status)
PARLEY_JSON_MAPPING(round_action)
PARLEY_JSON_MAPPING(negotiation_event_kind)
PARLEY_JSON_MAPPING(severity)
PARLEY_JSON_MAPPING(escrow_preference)
PARLEY_JSON_MAPPING(negotiation_style)
PARLEY_JSON_MAPPING(brain_kind)
PARLEY_JSON_MAPPING(strategy_kind)
PARLEY_JSON_MAPPING(bargaining_side)
PARLEY_JSON_MAPPING(reply_action)
PARLEY_JSON_MAPPING(store_query)
PARLEY_JSON_MAPPING(store_page)
PARLEY_JSON_MAPPING(agent_success)
PARLEY_JSON_MAPPING(outcome_rounds)
PARLEY_JSON_MAPPING(state_count)
PARLEY_JSON_MAPPING(expiration_rate)
PARLEY_JSON_MAPPING(converging_negotiation)
PARLEY_JSON_MAPPING(percentiles)
PARLEY_JSON_MAPPING(score_means)
PARLEY_JSON_MAPPING(outcome_figures)
PARLEY_JSON_MAPPING(store_stats)
PARLEY_JSON_MAPPING(channel_record)

PARLEY_JSON_MAPPING(ballot_strategy)
PARLEY_JSON_MAPPING(ballot_status)
PARLEY_JSON_MAPPING(ballot_event_kind)
PARLEY_JSON_MAPPING(auction_status)
PARLEY_JSON_MAPPING(auction_event_kind)
PARLEY_JSON_MAPPING(participant)
PARLEY_JSON_MAPPING(ballot_spec)
PARLEY_JSON_MAPPING(vote)
PARLEY_JSON_MAPPING(ballot_outcome)
PARLEY_JSON_MAPPING(ballot_event)
PARLEY_JSON_MAPPING(auction_spec)
PARLEY_JSON_MAPPING(bid)
PARLEY_JSON_MAPPING(bid_score)
PARLEY_JSON_MAPPING(auction_outcome)
PARLEY_JSON_MAPPING(auction_event)
PARLEY_JSON_MAPPING(ballot_invite)
PARLEY_JSON_MAPPING(auction_invite)
PARLEY_JSON_MAPPING(cast_vote)
PARLEY_JSON_MAPPING(place_bid)
PARLEY_JSON_MAPPING(consensus_peers)
PARLEY_JSON_MAPPING(open_ballot)
PARLEY_JSON_MAPPING(open_auction)
PARLEY_JSON_MAPPING(room_request)
PARLEY_JSON_MAPPING(room_view)
PARLEY_JSON_MAPPING(recovery_report)

PARLEY_JSON_MAPPING(offer_response_type)
PARLEY_JSON_MAPPING(offer_decision)
PARLEY_JSON_MAPPING(feedback_type)
PARLEY_JSON_MAPPING(confidence_level)
PARLEY_JSON_MAPPING(channel_event_kind)
PARLEY_JSON_MAPPING(channel_decision)
PARLEY_JSON_MAPPING(negotiation_point)
PARLEY_JSON_MAPPING(offer_response)
PARLEY_JSON_MAPPING(proposal_feedback)
PARLEY_JSON_MAPPING(assignment)
PARLEY_JSON_MAPPING(gap)
PARLEY_JSON_MAPPING(channel_proposal)
PARLEY_JSON_MAPPING(channel_tally)
PARLEY_JSON_MAPPING(channel_event)
PARLEY_JSON_MAPPING(demand_offer)
PARLEY_JSON_MAPPING(proposal_review)
PARLEY_JSON_MAPPING(selection_source)
PARLEY_JSON_MAPPING(demand_understanding)
PARLEY_JSON_MAPPING(channel_profile)
PARLEY_JSON_MAPPING(candidate)
PARLEY_JSON_MAPPING(candidate_selection)
PARLEY_JSON_MAPPING(channel_setup)
PARLEY_JSON_MAPPING(register_member)
PARLEY_JSON_MAPPING(submit_demand)
PARLEY_JSON_MAPPING(demand_status)
PARLEY_JSON_MAPPING(demand_receipt)
PARLEY_JSON_MAPPING(channel_outcome)
PARLEY_JSON_MAPPING(demand_view)
PARLEY_JSON_MAPPING(member_brain_kind)
PARLEY_JSON_MAPPING(scripted_offer)
PARLEY_JSON_MAPPING(scripted_feedback)
PARLEY_JSON_MAPPING(member_round)
PARLEY_JSON_MAPPING(channel_member_spec)

#undef PARLEY_JSON_MAPPING

/// A shared value is the value itself, or null.
template <class T> void to_json(nlohmann::json& j, const shared<T>& x) {
  j = x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

template <class T>
void read(const nlohmann::json& j, const std::string& path, shared<T>& x) {
  if (j.is_null()) {
    x = shared<T>{};
    return;
  }
  T value;
  read(j, path, value);
  x = shared<T>{std::move(value)};
}

/// Actor handles have no JSON form: they are written as whether they are set
/// and read back as unset (JSON is for people and HTTP clients, not for
/// addressing actors).
template <class... Sigs>
void read(const nlohmann::json& j, const std::string& path,
          caf::typed_actor<Sigs...>& x) {
  bool set = false;
  read(j, path, set);
  x = caf::typed_actor<Sigs...>{};
}

/// Reads a whole `T` from a JSON document (path shown from its root).
template <class T> T from_json_value(const nlohmann::json& j) {
  T x;
  read(j, std::string{}, x);
  return x;
}

} // namespace parley::messages

namespace nlohmann {

/// See `read` for typed actor handles above.
template <class... Sigs> struct adl_serializer<caf::typed_actor<Sigs...>> {
  static void to_json(json& j, const caf::typed_actor<Sigs...>& x) {
    j = static_cast<bool>(x);
  }
};

} // namespace nlohmann
