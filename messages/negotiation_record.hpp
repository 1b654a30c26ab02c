#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/deal_score.hpp"
#include "messages/fields.hpp"
#include "messages/proposal.hpp"
#include "messages/shared.hpp"

namespace parley::messages {

/// The bilateral statuses: proposed -> countering -> accepted | rejected |
/// expired (docs/protocols/bilateral.md, "States and transitions").
enum class negotiation_status : std::uint8_t {
  proposed,
  countering,
  accepted,
  rejected,
  expired,
};

/// Returns true for accepted, rejected and expired.
inline bool is_terminal(negotiation_status x) {
  return x == negotiation_status::accepted || x == negotiation_status::rejected ||
         x == negotiation_status::expired;
}

/// What a round did.
enum class round_action : std::uint8_t { propose, counter, accept, reject };

/// One step of a negotiation; round 1 is the initiator's proposal.
struct negotiation_round {
  std::int32_t round = 0;
  std::string from_agent;
  messages::proposal proposal;
  round_action action = round_action::propose;
  std::string reason;
  /// Milliseconds since the Unix epoch.
  std::int64_t timestamp = 0;
  /// The id of the agent message that made the round (empty for an opening
  /// without one): kept with the record, so a replay is recognised after a
  /// restart too.
  std::string message_id;

  friend bool operator==(const negotiation_round& x, const negotiation_round& y) {
    return x.round == y.round && x.from_agent == y.from_agent &&
           x.proposal == y.proposal && x.action == y.action && x.reason == y.reason &&
           x.timestamp == y.timestamp && x.message_id == y.message_id;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_round& x) {
  return f(caf::meta::type_name("negotiation_round"), field("round", x.round),
           field("from_agent", x.from_agent), field("proposal", x.proposal),
           field("action", x.action), optional_field("reason", x.reason),
           field("timestamp", x.timestamp), optional_field("message_id", x.message_id));
}

/// The economic terms: shares of the deal, summing to 1
/// (docs/protocols/record-and-schema.md, "The record").
struct incentive_split {
  double agent = 0.70;
  double broker = 0.10;
  double validator = 0.10;
  double pool = 0.10;

  friend bool operator==(const incentive_split& x, const incentive_split& y) {
    return x.agent == y.agent && x.broker == y.broker && x.validator == y.validator &&
           x.pool == y.pool;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, incentive_split& x) {
  return f(caf::meta::type_name("incentive_split"), field("agent", x.agent),
           field("broker", x.broker), field("validator", x.validator),
           field("pool", x.pool));
}

/// Returns an empty string if every share is within 0..1 and they sum to 1.
std::string validate(const incentive_split& x);

/// A whole negotiation: the bilateral record with the stored columns
/// (docs/protocols/record-and-schema.md, "The record").
struct negotiation_record {
  std::string id;
  std::string room_id;
  /// The intent (request) this negotiation serves.
  std::string intent_id;
  negotiation_status status = negotiation_status::proposed;
  std::string initiator;
  std::string responder;
  proposal current_proposal;
  /// Set when accepted: the proposal both sides agreed on.
  caf::optional<proposal> final_proposal;
  std::vector<negotiation_round> rounds;
  std::int32_t max_rounds = 5;
  std::int64_t round_timeout_ms = 30000;
  std::int64_t total_timeout_ms = 120000;
  /// 0..1, how close the two sides' latest amounts are (2 decimals:
  /// docs/protocols/bilateral.md, "Convergence score").
  double convergence_score = 0.0;
  messages::incentive_split incentive_split;
  /// Milliseconds since the Unix epoch.
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
  /// The hard deadline: created_at + total_timeout_ms.
  std::int64_t expires_at = 0;
  /// Why the negotiation ended: the reject reason or the expiry cause.
  std::string status_reason;
  /// How good its end was for both parties, when both value outcomes over
  /// the same domain (docs/outcomes.md, "Scores of live negotiations"): set
  /// as it ends.
  caf::optional<deal_score> score;

  friend bool operator==(const negotiation_record& x, const negotiation_record& y) {
    return x.id == y.id && x.room_id == y.room_id && x.intent_id == y.intent_id &&
           x.status == y.status && x.initiator == y.initiator &&
           x.responder == y.responder && x.current_proposal == y.current_proposal &&
           x.final_proposal == y.final_proposal && x.rounds == y.rounds &&
           x.max_rounds == y.max_rounds && x.round_timeout_ms == y.round_timeout_ms &&
           x.total_timeout_ms == y.total_timeout_ms &&
           x.convergence_score == y.convergence_score &&
           x.incentive_split == y.incentive_split && x.created_at == y.created_at &&
           x.updated_at == y.updated_at && x.expires_at == y.expires_at &&
           x.status_reason == y.status_reason && x.score == y.score;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_record& x) {
  return f(
      caf::meta::type_name("negotiation_record"), field("id", x.id),
      field("room_id", x.room_id), optional_field("intent_id", x.intent_id),
      field("status", x.status), field("initiator", x.initiator),
      field("responder", x.responder), field("current_proposal", x.current_proposal),
      optional_field("final_proposal", x.final_proposal), field("rounds", x.rounds),
      field("max_rounds", x.max_rounds), field("round_timeout_ms", x.round_timeout_ms),
      field("total_timeout_ms", x.total_timeout_ms),
      field("convergence_score", x.convergence_score),
      optional_field("incentive_split", x.incentive_split),
      field("created_at", x.created_at), field("updated_at", x.updated_at),
      field("expires_at", x.expires_at),
      optional_field("status_reason", x.status_reason),
      omittable_field("score", x.score));
}

/// Records a counter: the round becomes the newest and its proposal the
/// current one; the negotiation is countering from then on. Shared by the
/// negotiation's rules and by everyone who replays its events.
void append_counter(negotiation_record& record, negotiation_round round,
                    double convergence_score);

/// A final (or opening) record shared by every receiver of an event.
using shared_record = shared<negotiation_record>;

std::string to_string(negotiation_status x);
bool from_string(const std::string& text, negotiation_status& x);
std::string to_string(round_action x);
bool from_string(const std::string& text, round_action& x);

} // namespace parley::messages
