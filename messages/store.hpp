#pragma once

// What the store (actors/store/) is asked and answers: the query patterns as one
// filter, a page of records, the monitoring and analysis queries
// (docs/protocols/record-and-schema.md), and a channel's row.

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/channel.hpp"
#include "messages/fields.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::messages {

/// The query patterns (docs/protocols/record-and-schema.md, "Query patterns") as one
/// filter: every set field narrows the result; the page is newest first (created_at,
/// then id, descending).
struct store_query {
  /// Initiator's agent id (a DID such as "did:key:…" or any agent id).
  std::string initiator;
  std::string responder;
  /// One of the stored states (initiated, proposed, counter_proposed,
  /// accepted, rejected, expired); empty for any.
  std::string state;
  /// Only negotiations that have not ended (state not accepted, rejected or
  /// expired).
  bool active_only = false;
  std::string intent_id;
  /// Only negotiations whose convergence_score is above this (the
  /// high-convergence query uses 0.8).
  caf::optional<double> min_convergence;
  /// The `next_cursor` of the previous page; empty for the first page.
  std::string cursor;
  /// At most this many records; capped at `store_query::max_limit`.
  std::int32_t limit = 50;

  static constexpr std::int32_t max_limit = 500;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, store_query& x) {
  return f(caf::meta::type_name("store_query"), optional_field("initiator", x.initiator),
           optional_field("responder", x.responder), optional_field("state", x.state),
           optional_field("active_only", x.active_only),
           optional_field("intent_id", x.intent_id),
           optional_field("min_convergence", x.min_convergence),
           optional_field("cursor", x.cursor), optional_field("limit", x.limit));
}

/// One page of a query.
struct store_page {
  std::vector<negotiation_record> records;
  /// Where the next page starts; empty when this is the last one.
  std::string next_cursor;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, store_page& x) {
  return f(caf::meta::type_name("store_page"), field("records", x.records),
           optional_field("next_cursor", x.next_cursor));
}

/// A "success rate by agent" row (last 30 days:
/// docs/protocols/record-and-schema.md, "Monitoring queries").
struct agent_success {
  std::string initiator;
  std::int64_t accepted = 0;
  std::int64_t rejected = 0;
  std::int64_t expired = 0;
  double success_rate_pct = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_success& x) {
  return f(caf::meta::type_name("agent_success"), field("initiator_did", x.initiator),
           field("accepted", x.accepted), field("rejected", x.rejected),
           field("expired", x.expired), field("success_rate_pct", x.success_rate_pct));
}

/// An "average rounds by outcome" row (accepted or rejected, last 7
/// days).
struct outcome_rounds {
  std::string state;
  double avg_rounds = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, outcome_rounds& x) {
  return f(caf::meta::type_name("outcome_rounds"), field("state", x.state),
           field("avg_rounds", x.avg_rounds));
}

/// A "current stats" row (last 24 hours).
struct state_count {
  std::string state;
  std::int64_t count = 0;
  double avg_age_seconds = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, state_count& x) {
  return f(caf::meta::type_name("state_count"), field("state", x.state),
           field("count", x.count), field("avg_age_seconds", x.avg_age_seconds));
}

/// The "expiration rate" (last 7 days); no rate when there are no
/// negotiations.
struct expiration_rate {
  std::int64_t expired = 0;
  std::int64_t completed = 0;
  caf::optional<double> expiration_rate_pct;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, expiration_rate& x) {
  return f(caf::meta::type_name("expiration_rate"), field("expired", x.expired),
           field("completed", x.completed),
           optional_field("expiration_rate_pct", x.expiration_rate_pct));
}

/// Two percentiles of some values, by nearest rank: the value at rank
/// ceil(p · n) of the n values in ascending order.
struct percentiles {
  double p50 = 0;
  double p90 = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, percentiles& x) {
  return f(caf::meta::type_name("percentiles"), field("p50", x.p50),
           field("p90", x.p90));
}

/// The means of the deal scores (docs/outcomes.md, "Scores of live
/// negotiations") of the negotiations created in the last 7 days that ended
/// with one. No distance when none of them had a rational outcome.
struct score_means {
  std::int64_t negotiations = 0;
  utility_pair mean_utility;
  utility_pair mean_advantage;
  double mean_welfare = 0;
  caf::optional<double> mean_nash_distance;
  caf::optional<double> mean_pareto_distance;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, score_means& x) {
  return f(caf::meta::type_name("score_means"), field("negotiations", x.negotiations),
           field("mean_utility", x.mean_utility),
           field("mean_advantage", x.mean_advantage),
           field("mean_welfare", x.mean_welfare),
           omittable_field("mean_nash_distance", x.mean_nash_distance),
           omittable_field("mean_pareto_distance", x.mean_pareto_distance));
}

/// How the negotiations created in the last 7 days that ended, ended
/// (docs/protocols/record-and-schema.md, "Outcome figures"): how many agreed,
/// and for those the rounds of their record and the seconds from creation to
/// the accepting round. No rate or percentiles without a negotiation to
/// count.
struct outcome_figures {
  std::int64_t ended = 0;
  std::int64_t agreed = 0;
  caf::optional<double> agreement_rate_pct;
  caf::optional<percentiles> rounds_to_agreement;
  caf::optional<percentiles> seconds_to_agreement;
  /// The means of their deal scores, when any has one.
  caf::optional<score_means> scores;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, outcome_figures& x) {
  return f(caf::meta::type_name("outcome_figures"), field("ended", x.ended),
           field("agreed", x.agreed),
           optional_field("agreement_rate_pct", x.agreement_rate_pct),
           optional_field("rounds_to_agreement", x.rounds_to_agreement),
           optional_field("seconds_to_agreement", x.seconds_to_agreement),
           omittable_field("scores", x.scores));
}

/// A "high convergence" row (counter_proposed, score
/// above 0.8, highest first).
struct converging_negotiation {
  std::string id;
  std::string initiator;
  std::string responder;
  double convergence_score = 0;
  std::int32_t round_count = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, converging_negotiation& x) {
  return f(caf::meta::type_name("converging_negotiation"), field("id", x.id),
           field("initiator_did", x.initiator), field("responder_did", x.responder),
           field("convergence_score", x.convergence_score),
           field("round_count", x.round_count));
}

/// The four monitoring queries and the high-convergence one
/// (docs/protocols/record-and-schema.md, "Monitoring queries"), and the outcome
/// figures, as `parley stats` and `GET /stats` show them.
struct store_stats {
  std::vector<agent_success> success_by_agent;
  std::vector<outcome_rounds> rounds_by_outcome;
  std::vector<state_count> current;
  messages::expiration_rate expiration;
  std::vector<converging_negotiation> high_convergence;
  outcome_figures outcomes;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, store_stats& x) {
  return f(caf::meta::type_name("store_stats"),
           field("success_by_agent_30d", x.success_by_agent),
           field("rounds_by_outcome_7d", x.rounds_by_outcome),
           field("current_24h", x.current), field("expiration_7d", x.expiration),
           field("high_convergence", x.high_convergence),
           field("outcomes_7d", x.outcomes));
}

/// A channel as the store keeps it (its row of the `channels`
/// table): where the channel stands after the last of its events the store
/// wrote. Rebuilt from its events in `channel_events` after a restart.
struct channel_record {
  std::string channel_id;
  std::string demand_id;
  /// A sub-channel's parent; empty for a top channel.
  std::string parent_channel_id;
  /// 0 for a top channel, 1 for a sub-channel.
  std::int32_t depth = 0;
  /// The status after the event (docs/protocols/channels.md, "States and transitions"),
  /// e.g. "negotiating".
  std::string status;
  std::int32_t round = 1;
  /// The latest proposal (distributed, finalized, or the last one of a
  /// failed channel); none before the first.
  caf::optional<channel_proposal> proposal;
  /// Offers received this round and feedback received on its proposal, one
  /// per agent (a later answer replaces an earlier one, as in the channel).
  std::int32_t responses = 0;
  std::int32_t feedback = 0;
  /// Unix milliseconds: the channel's first event, and its latest.
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;

  friend bool operator==(const channel_record& x, const channel_record& y) {
    return x.channel_id == y.channel_id && x.demand_id == y.demand_id &&
           x.parent_channel_id == y.parent_channel_id && x.depth == y.depth &&
           x.status == y.status && x.round == y.round && x.proposal == y.proposal &&
           x.responses == y.responses && x.feedback == y.feedback &&
           x.created_at == y.created_at && x.updated_at == y.updated_at;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_record& x) {
  return f(caf::meta::type_name("channel_record"), field("channel_id", x.channel_id),
           field("demand_id", x.demand_id),
           optional_field("parent_channel_id", x.parent_channel_id),
           optional_field("depth", x.depth), field("status", x.status),
           field("round", x.round), omittable_field("proposal", x.proposal),
           field("responses", x.responses), field("feedback", x.feedback),
           field("created_at", x.created_at), field("updated_at", x.updated_at));
}

} // namespace parley::messages
