#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <unordered_map>

#include <nlohmann/json_fwd.hpp>

#include "cli/demand_summary.hpp"
#include "messages/channel_event.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"

namespace parley::cli {

using messages::run_summary;

/// How `parley run` and `parley demo` print events.
enum class output_format : std::uint8_t {
  json_lines, ///< one JSON event per line, then the summary line
  timeline,   ///< a human-readable timeline, then a summary sentence
};

/// `{"t_ms":…, "type":"negotiation.agreed", "room":…, "negotiation":{record}}`,
/// where `record` is the negotiation after the event; `t_ms` counts from
/// `start_ms`.
nlohmann::json event_json(const messages::negotiation_event& x,
                          const messages::negotiation_record& record,
                          std::int64_t start_ms);

/// `{"t_ms":…, "type":"error", "code":"E012", "message":…, …}` (the ids that
/// are known: room, negotiation_id, agent_id, message_id).
nlohmann::json event_json(const messages::problem_event& x, std::int64_t start_ms);

/// A ballot or auction event: its wire JSON with `t_ms` instead of `at_ms`.
nlohmann::json event_json(const messages::ballot_event& x, std::int64_t start_ms);
nlohmann::json event_json(const messages::auction_event& x, std::int64_t start_ms);
std::string timeline_line(const messages::ballot_event& x, std::int64_t start_ms);
std::string timeline_line(const messages::auction_event& x, std::int64_t start_ms);

/// A channel event (docs/protocols/channels.md): its wire JSON
/// (messages/channel_json.cpp, "type" the event's name) with `t_ms` instead of `at_ms`.
nlohmann::json event_json(const messages::channel_event& x, std::int64_t start_ms);

/// e.g. `+0.012s  collab-1  round 2  feedback.evaluated`.
std::string timeline_line(const messages::channel_event& x, std::int64_t start_ms);

/// One line of a human-readable timeline, e.g.
/// `+0.004s  room-1  freelancer counters £1,150.00: …`; `record` is the
/// negotiation after the event.
std::string timeline_line(const messages::negotiation_event& x,
                          const messages::negotiation_record& record,
                          std::int64_t start_ms);
std::string timeline_line(const messages::problem_event& x, std::int64_t start_ms);

/// `{"t_ms":…, "type":"agent.decision", "agent_id":…, …, "fallback":…}`.
nlohmann::json event_json(const messages::agent_event& x, std::int64_t start_ms);

/// e.g. `+1.204s  bob  decides counter (fallback): …`.
std::string timeline_line(const messages::agent_event& x, std::int64_t start_ms);
std::string timeline_summary(const run_summary& x);

/// The summary line's JSON with the demand counts added (`demands`,
/// `demands_finalized`, …, `channels_failed`, `expectations_failed`).
nlohmann::json summary_json(const run_summary& x, const demand_summary& d);

/// The summary sentence, then `; 2 demand(s): 1 finalized, …`.
std::string timeline_summary(const run_summary& x, const demand_summary& d);

/// Prints a run's events, one line each, flushed at once (a pipe or a file
/// being followed sees each event as it happens). Negotiation events are
/// lean (only `started` and the end carry the record); the printer keeps the
/// record of each open negotiation up to date and prints it whole.
class event_printer {
public:
  event_printer(output_format format, std::ostream& out, std::int64_t start_ms);

  void print(const messages::negotiation_event& x);
  void print(const messages::problem_event& x);
  void print(const messages::agent_event& x);
  void print(const messages::ballot_event& x);
  void print(const messages::auction_event& x);
  void print(const messages::channel_event& x);

  /// The summary line, last.
  void print(const run_summary& x);

  /// The summary line of a run that had demands, last.
  void print(const run_summary& x, const demand_summary& d);

private:
  template <class Event> void emit(const Event& x);

  output_format format_;
  std::ostream* out_;
  std::int64_t start_ms_;
  /// The records of the negotiations that have not ended.
  std::unordered_map<std::string, messages::negotiation_record> records_;
};

} // namespace parley::cli
