#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"

#include "messages/error_code.hpp"
#include "messages/fields.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/topic.hpp"

namespace parley::messages {

/// The bilateral lifecycle events (docs/protocols/bilateral.md, "Events"); the topic is
/// "negotiation.<kind>".
enum class negotiation_event_kind : std::uint8_t {
  started,
  updated,
  agreed,
  rejected,
  expired,
};

/// A lifecycle event. Lean by design: `started` and the terminal events carry
/// the whole record (built once, shared by every receiver), `updated` only
/// what the counter changed; `apply` replays them onto a record.
struct negotiation_event {
  negotiation_event_kind kind = negotiation_event_kind::started;
  /// Microseconds since the Unix epoch, from the producer's actor clock.
  std::int64_t at_us = 0;
  std::string negotiation_id;
  std::string room_id;
  /// The agent message this event answers (for `started`, the start
  /// request); empty for an expiry.
  std::string message_id;
  /// `updated`: the counter just made, the negotiation's newest round.
  caf::optional<negotiation_round> round;
  /// `updated`: the convergence score after the counter.
  double convergence_score = 0;
  /// For a reply (updated, agreed, rejected): microseconds from the moment the
  /// negotiation passed the previous offer on to the moment this reply
  /// arrived. Zero for started and expired.
  std::int64_t round_trip_us = 0;
  /// `started`: the opened record; `agreed`, `rejected`, `expired`: the final
  /// one; `updated`: none.
  shared_record record;
  /// On a terminal event: the subscribers that settle (the store under `parley
  /// run` and `parley bench`, `subscription::settle_ms`) heard nothing of the
  /// negotiation before; for them this event is all of it. In JSON only when
  /// set.
  bool unannounced = false;

  /// The same instant in Unix milliseconds.
  std::int64_t at_ms() const { return at_us / 1000; }

  friend bool operator==(const negotiation_event& x, const negotiation_event& y) {
    return x.kind == y.kind && x.at_us == y.at_us &&
           x.negotiation_id == y.negotiation_id && x.room_id == y.room_id &&
           x.message_id == y.message_id && x.round == y.round &&
           x.convergence_score == y.convergence_score &&
           x.round_trip_us == y.round_trip_us && x.record == y.record &&
           x.unannounced == y.unannounced;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_event& x) {
  return f(caf::meta::type_name("negotiation_event"),
           hand_written_field("type", x.kind), field("at_us", x.at_us),
           field("negotiation_id", x.negotiation_id), field("room_id", x.room_id),
           optional_field("message_id", x.message_id), optional_field("round", x.round),
           optional_field("convergence_score", x.convergence_score),
           optional_field("round_trip_us", x.round_trip_us),
           optional_field("negotiation", x.record),
           defaulted_field("unannounced", x.unannounced));
}

/// Returns whether `x` ends its negotiation (agreed, rejected or expired).
bool is_terminal(const negotiation_event& x);

/// Brings `record` up to date with `x`, the next event of its negotiation:
/// what a consumer that keeps records (the printer, the store) does with the
/// lean events. A `started` or terminal event replaces the record.
void apply(negotiation_record& record, const negotiation_event& x);

/// How bad a problem is: an error refused something; a warning dropped
/// something that needs no answer (a late or replayed message).
enum class severity : std::uint8_t { error, warning };

/// A refused or dropped input; the topic is "error" or "warning".
struct problem_event {
  messages::severity severity = severity::error;
  error_code code = error_code::none;
  std::string message;
  std::int64_t at_ms = 0;
  std::string room_id;
  std::string negotiation_id;
  std::string agent_id;
  std::string message_id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, problem_event& x) {
  return f(caf::meta::type_name("problem_event"), field("type", x.severity),
           field("code", x.code), field("message", x.message), field("at_ms", x.at_ms),
           optional_field("room", x.room_id),
           optional_field("negotiation_id", x.negotiation_id),
           optional_field("agent_id", x.agent_id),
           optional_field("message_id", x.message_id));
}

/// What a run (a scenario, a benchmark) counted.
struct run_summary {
  std::int64_t negotiations = 0;
  std::int64_t accepted = 0;
  std::int64_t rejected = 0;
  std::int64_t expired = 0;
  std::int64_t errors = 0;
  std::int64_t warnings = 0;
  /// Ballots opened and how they resolved; auctions resolved
  /// (docs/protocols/ballots-and-auctions.md).
  std::int64_t ballots = 0;
  std::int64_t ballots_approved = 0;
  std::int64_t ballots_rejected = 0;
  std::int64_t auctions = 0;
  std::int64_t auctions_awarded = 0;

  friend bool operator==(const run_summary& x, const run_summary& y) {
    return x.negotiations == y.negotiations && x.accepted == y.accepted &&
           x.rejected == y.rejected && x.expired == y.expired && x.errors == y.errors &&
           x.warnings == y.warnings && x.ballots == y.ballots &&
           x.ballots_approved == y.ballots_approved &&
           x.ballots_rejected == y.ballots_rejected && x.auctions == y.auctions &&
           x.auctions_awarded == y.auctions_awarded;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_summary& x) {
  return f(caf::meta::type_name("run_summary"), field("negotiations", x.negotiations),
           field("accepted", x.accepted), field("rejected", x.rejected),
           field("expired", x.expired), field("errors", x.errors),
           optional_field("warnings", x.warnings), optional_field("ballots", x.ballots),
           optional_field("ballots_approved", x.ballots_approved),
           optional_field("ballots_rejected", x.ballots_rejected),
           optional_field("auctions", x.auctions),
           optional_field("auctions_awarded", x.auctions_awarded));
}

std::string to_string(negotiation_event_kind x);
bool from_string(const std::string& text, negotiation_event_kind& x);
std::string to_string(severity x);
bool from_string(const std::string& text, severity& x);

/// The bus topic of an event, e.g. topic::negotiation_agreed or topic::error.
topic topic_of(const negotiation_event& x);
topic topic_of(const problem_event& x);

} // namespace parley::messages
