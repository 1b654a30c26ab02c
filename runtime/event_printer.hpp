#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"

namespace parley::runtime {

using messages::run_summary;

/// `{"t_ms":…, "type":"negotiation.agreed", "room":…, "negotiation":{record}}`;
/// `t_ms` counts from `start_ms`.
nlohmann::json event_json(const messages::negotiation_event& x, std::int64_t start_ms);

/// `{"t_ms":…, "type":"error", "code":"E012", "message":…, …}` (the ids that
/// are known: room, negotiation_id, agent_id, message_id).
nlohmann::json event_json(const messages::problem_event& x, std::int64_t start_ms);

/// A ballot or auction event: its wire JSON with `t_ms` instead of `at_ms`.
nlohmann::json event_json(const messages::ballot_event& x, std::int64_t start_ms);
nlohmann::json event_json(const messages::auction_event& x, std::int64_t start_ms);
std::string timeline_line(const messages::ballot_event& x, std::int64_t start_ms);
std::string timeline_line(const messages::auction_event& x, std::int64_t start_ms);

/// One line of a human-readable timeline, e.g.
/// `+0.004s  room-1  freelancer counters £1,150.00: …`.
std::string timeline_line(const messages::negotiation_event& x, std::int64_t start_ms);
std::string timeline_line(const messages::problem_event& x, std::int64_t start_ms);

/// `{"t_ms":…, "type":"agent.decision", "agent_id":…, …, "fallback":…}`.
nlohmann::json event_json(const messages::agent_event& x, std::int64_t start_ms);

/// e.g. `+1.204s  bob  decides counter (fallback): …`.
std::string timeline_line(const messages::agent_event& x, std::int64_t start_ms);
std::string timeline_summary(const run_summary& x);

} // namespace parley::runtime
