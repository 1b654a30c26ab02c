#pragma once

// A channel's lifecycle events (docs/protocols/channels.md, "Events",
// docs/protocols/channels.md, "Flow").

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/channel.hpp"
#include "messages/channel_settings.hpp"
#include "messages/demand.hpp"
#include "messages/fields.hpp"
#include "messages/topic.hpp"

namespace parley::messages {

/// The channel protocol's event names without the "towow." prefix, in the order a
/// demand and its channel go through them. The first two are the
/// coordinator's, before a channel exists.
enum class channel_event_kind : std::uint8_t {
  demand_understood,    ///< demand.understood
  filter_completed,     ///< filter.completed
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

/// What an evaluation decided (feedback.evaluated,
/// docs/protocols/channels.md, "Evaluation and thresholds"): finalize, renegotiate,
/// fail, and force_finalize for the last round's middle band.
enum class channel_decision : std::uint8_t {
  finalize,
  renegotiate,
  force_finalize,
  fail
};

/// One round's feedback as docs/protocols/channels.md, "Evaluation and thresholds"
/// counts it.
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

/// What a channel was created with (channel.created): enough to build it
/// again from its events after a restart, its candidates' handles aside.
struct channel_setup {
  /// The demand as its candidates see it.
  std::string surface_demand;
  std::vector<std::string> capability_tags;
  /// Whom the demand is put to, in order, with why
  /// (docs/protocols/channels.md, "Candidate selection").
  std::vector<candidate> candidates;
  /// A sub-channel's parent (docs/protocols/channels.md, "Gaps and sub-channels");
  /// empty for a top channel.
  std::string parent_channel_id;
  /// 0 for a top channel, 1 for a sub-channel.
  std::int32_t depth = 0;
  channel_settings settings;

  friend bool operator==(const channel_setup& x, const channel_setup& y) {
    return x.surface_demand == y.surface_demand &&
           x.capability_tags == y.capability_tags && x.candidates == y.candidates &&
           x.parent_channel_id == y.parent_channel_id && x.depth == y.depth &&
           x.settings == y.settings;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_setup& x) {
  return f(caf::meta::type_name("channel_setup"),
           field("surface_demand", x.surface_demand),
           optional_field("capability_tags", x.capability_tags),
           field("candidates", x.candidates),
           optional_field("parent_channel_id", x.parent_channel_id),
           optional_field("depth", x.depth), optional_field("settings", x.settings));
}

/// A demand's or channel's event: its kind, channel (empty in a top
/// demand's demand.understood and filter.completed; a sub-channel's
/// filter.completed names it) and round, and what that kind is about (unset or empty
/// otherwise).
struct channel_event {
  channel_event_kind kind = channel_event_kind::created;
  std::int64_t at_ms = 0;
  std::string channel_id;
  std::string demand_id;
  std::int32_t round = 1;
  /// demand.understood.
  caf::optional<demand_understanding> understanding;
  /// filter.completed (its `fallback()` is the flag of
  /// docs/protocols/channels.md, "Candidate selection").
  caf::optional<candidate_selection> selection;
  /// channel.created.
  caf::optional<channel_setup> setup;
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
  /// round_started: why; failed: the reason
  /// (docs/protocols/channels.md, "Failure reasons").
  std::string reason;
  /// failed with low_acceptance (docs/protocols/channels.md, "Failure reasons").
  std::string compromise_suggestion;

  friend bool operator==(const channel_event& x, const channel_event& y) {
    return x.kind == y.kind && x.at_ms == y.at_ms && x.channel_id == y.channel_id &&
           x.demand_id == y.demand_id && x.round == y.round &&
           x.understanding == y.understanding && x.selection == y.selection &&
           x.setup == y.setup && x.agents == y.agents && x.offer == y.offer &&
           x.feedback == y.feedback && x.tally == y.tally && x.proposal == y.proposal &&
           x.reason == y.reason && x.compromise_suggestion == y.compromise_suggestion;
  }
};

/// Calls `f(agent_id, message_id)` for the member's answer `x` carries
/// (offer.submitted, proposal.feedback), if it carries one.
template <class F> void visit_answer(const channel_event& x, F&& f) {
  if (x.offer)
    f(x.offer->agent_id, x.offer->message_id);
  if (x.feedback)
    f(x.feedback->agent_id, x.feedback->message_id);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_event& x) {
  return f(caf::meta::type_name("channel_event"), hand_written_field("type", x.kind),
           field("at_ms", x.at_ms), optional_field("channel_id", x.channel_id),
           optional_field("demand_id", x.demand_id), field("round", x.round),
           omittable_field("understanding", x.understanding),
           omittable_field("selection", x.selection), omittable_field("setup", x.setup),
           optional_field("agents", x.agents), omittable_field("offer", x.offer),
           omittable_field("feedback", x.feedback), omittable_field("tally", x.tally),
           omittable_field("proposal", x.proposal), optional_field("reason", x.reason),
           optional_field("compromise_suggestion", x.compromise_suggestion));
}

/// The event's name (docs/protocols/channels.md, "Events"), e.g.
/// "negotiation.force_finalized".
std::string to_string(channel_event_kind x);
bool from_string(const std::string& text, channel_event_kind& x);
std::string to_string(channel_decision x);
bool from_string(const std::string& text, channel_decision& x);

/// The topic `x` is published on: "towow." and its kind's name.
topic topic_of(const channel_event& x);

} // namespace parley::messages
