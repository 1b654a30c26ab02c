#pragma once

// The channel vocabulary (docs/protocols/channels.md): what a candidate answers the
// demand with (docs/protocols/channels.md, "Collecting offers"), the proposal the
// channel aggregates (docs/protocols/channels.md, "Aggregation") and what a participant
// says about it (docs/protocols/channels.md, "Collecting feedback").

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"

#include "messages/confidence.hpp"
#include "messages/fields.hpp"
#include "messages/proposal.hpp"

namespace parley::messages {

/// An offer is a concrete contribution, negotiate asks to
/// bargain first (with negotiation points).
enum class offer_response_type : std::uint8_t { offer, negotiate };

enum class offer_decision : std::uint8_t { participate, decline, conditional };

enum class feedback_type : std::uint8_t { accept, negotiate, withdraw };

/// One thing a candidate wants changed before it takes part.
struct negotiation_point {
  std::string aspect;
  std::string current_value;
  std::string desired_value;
  std::string reason;

  friend bool operator==(const negotiation_point& x, const negotiation_point& y) {
    return x.aspect == y.aspect && x.current_value == y.current_value &&
           x.desired_value == y.desired_value && x.reason == y.reason;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_point& x) {
  return f(caf::meta::type_name("negotiation_point"), field("aspect", x.aspect),
           optional_field("current_value", x.current_value),
           field("desired_value", x.desired_value), optional_field("reason", x.reason));
}

/// A candidate's answer to the demand
/// (docs/protocols/channels.md, "Collecting offers"). An empty optional text is absent.
struct offer_response {
  std::string message_id;
  std::string channel_id;
  std::string agent_id;
  std::string display_name;
  offer_response_type response_type = offer_response_type::offer;
  offer_decision decision = offer_decision::participate;
  /// Required for an offer that takes part (see validate).
  std::string contribution;
  std::vector<std::string> conditions;
  std::string reasoning;
  std::string decline_reason;
  /// Required for negotiate.
  std::vector<negotiation_point> negotiation_points;
  /// 0..100.
  std::int32_t confidence = 0;
  /// The `fallback` flag: the fallback answer of a member whose model gave no
  /// usable answer (docs/protocols/channels.md, "Member brains").
  bool fallback = false;

  friend bool operator==(const offer_response& x, const offer_response& y) {
    return x.message_id == y.message_id && x.channel_id == y.channel_id &&
           x.agent_id == y.agent_id && x.display_name == y.display_name &&
           x.response_type == y.response_type && x.decision == y.decision &&
           x.contribution == y.contribution && x.conditions == y.conditions &&
           x.reasoning == y.reasoning && x.decline_reason == y.decline_reason &&
           x.negotiation_points == y.negotiation_points &&
           x.confidence == y.confidence && x.fallback == y.fallback;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, offer_response& x) {
  return f(caf::meta::type_name("offer_response"), field("message_id", x.message_id),
           field("channel_id", x.channel_id), field("agent_id", x.agent_id),
           optional_field("display_name", x.display_name),
           field("response_type", x.response_type), field("decision", x.decision),
           optional_field("contribution", x.contribution),
           optional_field("conditions", x.conditions),
           optional_field("reasoning", x.reasoning),
           optional_field("decline_reason", x.decline_reason),
           optional_field("negotiation_points", x.negotiation_points),
           optional_field("confidence", x.confidence),
           optional_field("fallback", x.fallback));
}

/// A participant's verdict on the current proposal
/// (docs/protocols/channels.md, "Collecting feedback").
struct proposal_feedback {
  std::string message_id;
  std::string channel_id;
  std::string agent_id;
  messages::feedback_type feedback_type = messages::feedback_type::accept;
  /// What a negotiate asks to change.
  std::string adjustment_request;
  std::string reasoning;
  /// The `fallback` flag: the fallback feedback of a member whose model gave
  /// no usable answer (docs/protocols/channels.md, "Member brains").
  bool fallback = false;

  friend bool operator==(const proposal_feedback& x, const proposal_feedback& y) {
    return x.message_id == y.message_id && x.channel_id == y.channel_id &&
           x.agent_id == y.agent_id && x.feedback_type == y.feedback_type &&
           x.adjustment_request == y.adjustment_request && x.reasoning == y.reasoning &&
           x.fallback == y.fallback;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, proposal_feedback& x) {
  return f(caf::meta::type_name("proposal_feedback"), field("message_id", x.message_id),
           field("channel_id", x.channel_id), field("agent_id", x.agent_id),
           field("feedback_type", x.feedback_type),
           optional_field("adjustment_request", x.adjustment_request),
           optional_field("reasoning", x.reasoning),
           optional_field("fallback", x.fallback));
}

/// A participant's role in a proposal (docs/protocols/channels.md, "Aggregation").
struct assignment {
  std::string agent_id;
  std::string display_name;
  std::string role;
  std::string responsibility;
  /// Agent ids this assignment waits on.
  std::vector<std::string> dependencies;
  bool is_confirmed = true;
  std::string notes;

  friend bool operator==(const assignment& x, const assignment& y) {
    return x.agent_id == y.agent_id && x.display_name == y.display_name &&
           x.role == y.role && x.responsibility == y.responsibility &&
           x.dependencies == y.dependencies && x.is_confirmed == y.is_confirmed &&
           x.notes == y.notes;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, assignment& x) {
  return f(caf::meta::type_name("assignment"), field("agent_id", x.agent_id),
           optional_field("display_name", x.display_name), field("role", x.role),
           optional_field("responsibility", x.responsibility),
           optional_field("dependencies", x.dependencies),
           optional_field("is_confirmed", x.is_confirmed),
           optional_field("notes", x.notes));
}

/// Something the demand needs that no participant covers
/// (docs/protocols/channels.md, "Gaps and sub-channels"): what a sub-channel's demand
/// needs.
struct gap {
  std::string description;
  std::vector<std::string> capability_tags;

  friend bool operator==(const gap& x, const gap& y) {
    return x.description == y.description && x.capability_tags == y.capability_tags;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, gap& x) {
  return f(caf::meta::type_name("gap"), field("description", x.description),
           optional_field("capability_tags", x.capability_tags));
}

/// The plan a channel puts to its participants
/// (docs/protocols/channels.md, "Aggregation").
struct channel_proposal {
  std::string proposal_id;
  std::string demand_id;
  /// One per round: 1..max_rounds.
  std::int32_t version = 1;
  std::string summary;
  std::string objective;
  std::vector<messages::assignment> assignments;
  /// Free-form JSON.
  json_object timeline;
  std::string rationale;
  /// Set by a forced finalize (docs/protocols/channels.md, "Forced finalize"), with the
  /// two lists below.
  bool is_forced = false;
  std::vector<std::string> confirmed_participants;
  std::vector<std::string> optional_participants;
  std::vector<messages::gap> gaps;
  confidence_level confidence = confidence_level::medium;
  /// Unix milliseconds.
  std::int64_t created_at = 0;
  /// The `fallback` flag: the rule's merge, made for a channel whose model
  /// gave no usable proposal (docs/protocols/channels.md, "Aggregation").
  bool fallback = false;

  friend bool operator==(const channel_proposal& x, const channel_proposal& y) {
    return x.proposal_id == y.proposal_id && x.demand_id == y.demand_id &&
           x.version == y.version && x.summary == y.summary &&
           x.objective == y.objective && x.assignments == y.assignments &&
           x.timeline == y.timeline && x.rationale == y.rationale &&
           x.is_forced == y.is_forced &&
           x.confirmed_participants == y.confirmed_participants &&
           x.optional_participants == y.optional_participants && x.gaps == y.gaps &&
           x.confidence == y.confidence && x.created_at == y.created_at &&
           x.fallback == y.fallback;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_proposal& x) {
  return f(
      caf::meta::type_name("channel_proposal"), field("proposal_id", x.proposal_id),
      field("demand_id", x.demand_id), field("version", x.version),
      field("summary", x.summary), optional_field("objective", x.objective),
      optional_field("assignments", x.assignments),
      optional_field("timeline", x.timeline), optional_field("rationale", x.rationale),
      optional_field("is_forced", x.is_forced),
      optional_field("confirmed_participants", x.confirmed_participants),
      optional_field("optional_participants", x.optional_participants),
      optional_field("gaps", x.gaps), optional_field("confidence", x.confidence),
      optional_field("created_at", x.created_at),
      optional_field("fallback", x.fallback));
}

/// Returns an empty string if `x` is a valid answer, otherwise why not: ids
/// present, confidence within 0..100, a contribution for an offer that
/// takes part, negotiation points for negotiate.
std::string validate(const offer_response& x);

/// Returns an empty string if `x` is valid (ids present), otherwise why not.
std::string validate(const proposal_feedback& x);

/// Returns an empty string if `x` is valid (version within 1..max_rounds,
/// every assignment names its agent), otherwise why not.
std::string validate(const channel_proposal& x, std::int32_t max_rounds);

std::string to_string(offer_response_type x);
bool from_string(const std::string& text, offer_response_type& x);
std::string to_string(offer_decision x);
bool from_string(const std::string& text, offer_decision& x);
std::string to_string(feedback_type x);
bool from_string(const std::string& text, feedback_type& x);

} // namespace parley::messages
