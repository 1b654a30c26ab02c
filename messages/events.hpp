#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"

#include "messages/error_code.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::messages {

/// Seed 000's lifecycle events; the topic is "negotiation.<kind>".
enum class negotiation_event_kind : std::uint8_t {
  started,
  updated,
  agreed,
  rejected,
  expired,
};

/// A lifecycle event with the whole record after the change.
struct negotiation_event {
  negotiation_event_kind kind = negotiation_event_kind::started;
  /// Milliseconds since the Unix epoch, from the producer's actor clock.
  std::int64_t at_ms = 0;
  negotiation_record record;
  /// The same instant in microseconds (for latency measurements).
  std::int64_t at_us = 0;
  /// For a reply (updated, agreed, rejected): microseconds from the moment the
  /// negotiation passed the previous offer on to the moment this reply
  /// arrived. Zero for started and expired.
  std::int64_t round_trip_us = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_event& x) {
  return f(caf::meta::type_name("negotiation_event"), x.kind, x.at_ms, x.record,
           x.at_us, x.round_trip_us);
}

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
  return f(caf::meta::type_name("problem_event"), x.severity, x.code, x.message,
           x.at_ms, x.room_id, x.negotiation_id, x.agent_id, x.message_id);
}

/// What a run (a scenario, a benchmark) counted.
struct run_summary {
  std::int64_t negotiations = 0;
  std::int64_t accepted = 0;
  std::int64_t rejected = 0;
  std::int64_t expired = 0;
  std::int64_t errors = 0;
  std::int64_t warnings = 0;
  /// Seed 004: ballots opened and how they resolved; auctions resolved.
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
  return f(caf::meta::type_name("run_summary"), x.negotiations, x.accepted, x.rejected,
           x.expired, x.errors, x.warnings, x.ballots, x.ballots_approved,
           x.ballots_rejected, x.auctions, x.auctions_awarded);
}

std::string to_string(negotiation_event_kind x);
bool from_string(const std::string& text, negotiation_event_kind& x);
std::string to_string(severity x);
bool from_string(const std::string& text, severity& x);

/// The bus topic of an event, e.g. "negotiation.agreed" or "error".
std::string topic_of(const negotiation_event& x);
std::string topic_of(const problem_event& x);

} // namespace parley::messages
