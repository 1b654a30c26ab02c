#pragma once

// A channel's lifecycle events (seed 002 §3.3 and §6.1).

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/channel.hpp"
#include "messages/fields.hpp"

namespace parley::messages {

/// Seed 002's event names without the "towow." prefix, in the order a
/// channel goes through them.
enum class channel_event_kind : std::uint8_t {
  created,              ///< channel.created
  demand_broadcast,     ///< demand.broadcast
  offer_submitted,      ///< offer.submitted
  proposal_distributed, ///< proposal.distributed
  proposal_feedback,    ///< proposal.feedback
  feedback_evaluated,   ///< feedback.evaluated
  round_started,        ///< negotiation.round_started
  finalized,            ///< proposal.finalized
  force_finalized,      ///< negotiation.force_finalized
  failed,               ///< negotiation.failed
};

/// What an evaluation decided (seed 002 §3.3 feedback.evaluated): the
/// seed's three, and force_finalize for the last round's middle band.
enum class channel_decision : std::uint8_t {
  finalize,
  renegotiate,
  force_finalize,
  fail
};

/// One round's feedback as seed 002 §5.4 counts it.
struct channel_tally {
  std::int32_t accepts = 0;
  std::int32_t negotiates = 0;
  std::int32_t withdraws = 0;
  /// 0..1.
  double accept_rate = 0;
  channel_decision decision = channel_decision::fail;

  friend bool operator==(const channel_tally& x, const channel_tally& y) {
    return x.accepts == y.accepts && x.negotiates == y.negotiates &&
           x.withdraws == y.withdraws && x.accept_rate == y.accept_rate &&
           x.decision == y.decision;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_tally& x) {
  return f(caf::meta::type_name("channel_tally"), field("accepts", x.accepts),
           field("negotiates", x.negotiates), field("withdraws", x.withdraws),
           field("accept_rate", x.accept_rate), field("decision", x.decision));
}

/// A channel's event: its kind, channel and round, and what that kind is
/// about (unset or empty otherwise).
struct channel_event {
  channel_event_kind kind = channel_event_kind::created;
  std::int64_t at_ms = 0;
  std::string channel_id;
  std::string demand_id;
  std::int32_t round = 1;
  /// created: the candidates; demand.broadcast: who got the demand.
  std::vector<std::string> agents;
  /// offer.submitted.
  caf::optional<offer_response> offer;
  /// proposal.feedback.
  caf::optional<proposal_feedback> feedback;
  /// feedback.evaluated, and the accept rate of negotiation.failed.
  caf::optional<channel_tally> tally;
  /// proposal.distributed, proposal.finalized, negotiation.force_finalized
  /// (with its confirmed and optional participants) and negotiation.failed
  /// (the last one, if any).
  caf::optional<channel_proposal> proposal;
  /// round_started: why; failed: seed 002 §3.3's reason.
  std::string reason;
  /// failed with low_acceptance (seed 002 §7.3).
  std::string compromise_suggestion;

  friend bool operator==(const channel_event& x, const channel_event& y) {
    return x.kind == y.kind && x.at_ms == y.at_ms && x.channel_id == y.channel_id &&
           x.demand_id == y.demand_id && x.round == y.round && x.agents == y.agents &&
           x.offer == y.offer && x.feedback == y.feedback && x.tally == y.tally &&
           x.proposal == y.proposal && x.reason == y.reason &&
           x.compromise_suggestion == y.compromise_suggestion;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_event& x) {
  return f(caf::meta::type_name("channel_event"), hand_written_field("type", x.kind),
           field("at_ms", x.at_ms), field("channel_id", x.channel_id),
           optional_field("demand_id", x.demand_id), field("round", x.round),
           optional_field("agents", x.agents), omittable_field("offer", x.offer),
           omittable_field("feedback", x.feedback), omittable_field("tally", x.tally),
           omittable_field("proposal", x.proposal), optional_field("reason", x.reason),
           optional_field("compromise_suggestion", x.compromise_suggestion));
}

/// The seed's name, e.g. "negotiation.force_finalized".
std::string to_string(channel_event_kind x);
bool from_string(const std::string& text, channel_event_kind& x);
std::string to_string(channel_decision x);
bool from_string(const std::string& text, channel_decision& x);

} // namespace parley::messages
