#pragma once

// Forward declarations of Parley's wire types, so that an actor interface
// (`messages/handles/<kind>.hpp`) can name the messages it accepts without
// pulling their definitions in, and a message can carry a typed handle.

#include <cstdint>

namespace parley::messages {

// proposal.hpp
struct json_object;
struct proposal;

// negotiation_record.hpp
enum class negotiation_status : std::uint8_t;
enum class round_action : std::uint8_t;
struct negotiation_round;
struct incentive_split;
struct negotiation_record;
template <class T> class shared;
using shared_record = shared<negotiation_record>;

// negotiation_settings.hpp
struct negotiation_settings;

// agent_messages.hpp
struct agent_proposal;
struct agent_counter;
struct agent_accept;
struct agent_reject;
struct answer_terms;

// agent_profile.hpp
struct agent_preferences;
struct agent_profile;
struct proposal_patch;
struct script_reply;
struct brain_spec;
struct agent_spec;
struct party_valuation;

// utility.hpp
struct amount_issue;
struct term_issue;
struct outcome_domain;
struct utility_spec;

// deal_score.hpp
struct utility_pair;
struct offer_utilities;
struct deal_score;

// decision.hpp
struct decision;

// error_code.hpp
enum class error_code : std::uint8_t;

// bridge.hpp
struct routed;
struct routed_batch;

// commands.hpp
struct start_negotiation;
struct initiate_negotiation;
struct negotiation_opened;
struct negotiation_opening;
struct negotiation_peers;
struct open_negotiation;
struct resume_negotiation;
struct join_room;
struct room_member;
struct barrier;
struct room_spec;
struct timer_due;
struct arm_timer;
struct timer_tick;
struct deferred_reply;
struct start_deadline;

// events.hpp
enum class negotiation_event_kind : std::uint8_t;
enum class severity : std::uint8_t;
struct negotiation_event;
struct problem_event;
struct run_summary;

// store.hpp
struct store_query;
struct store_page;
struct agent_success;
struct outcome_rounds;
struct state_count;
struct expiration_rate;
struct converging_negotiation;
struct percentiles;
struct score_means;
struct outcome_figures;
struct store_stats;
struct channel_record;

// event_sink.hpp
class topic_set;
class event_sink;

// llm.hpp
struct llm_request;
struct llm_response;
struct llm_attempt;
struct agent_event;
struct transcript_entry;
struct transcript_flush;
struct negotiation_trigger;
struct tool_definition;
struct set_tools;

// api.hpp
struct room_request;
struct room_view;
struct recovery_report;

// consensus.hpp
struct participant;
struct ballot_spec;
struct vote;
struct ballot_outcome;
struct ballot_event;
struct auction_spec;
struct bid;
struct bid_score;
struct auction_outcome;
struct auction_event;
struct ballot_invite;
struct auction_invite;
struct cast_vote;
struct place_bid;
struct consensus_peers;
struct open_ballot;
struct open_auction;

// channel.hpp, channel_messages.hpp, channel_event.hpp
struct offer_response;
struct proposal_feedback;
struct demand_offer;
struct proposal_review;
struct channel_event;

// coordinator_messages.hpp
enum class demand_status : std::uint8_t;
struct register_member;
struct submit_demand;
struct demand_receipt;
struct channel_outcome;
struct demand_view;

// cluster_event.hpp
struct cluster_event;
struct cluster_event_batch;

} // namespace parley::messages
