#include "cli/event_printer.hpp"

#include <cstdio>
#include <ostream>

#include "actors/agent/money.hpp"
#include "messages/json.hpp"

namespace parley::cli {

using actors::agent::format_amount;
using messages::negotiation_event_kind;

namespace {

std::string stamp(std::int64_t at_ms, std::int64_t start_ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "+%.3fs",
                static_cast<double>(at_ms - start_ms) / 1000.0);
  return buf;
}

/// "£1,000.00 with escrow"; with `full`, the description follows.
std::string describe(const messages::proposal& x, bool full = false) {
  auto result = format_amount(x.amount, x.currency);
  result += x.escrow ? " with escrow" : " without escrow";
  if (full && !x.description.empty())
    result += " for \"" + x.description + "\"";
  return result;
}

} // namespace

namespace {

template <class Event>
nlohmann::json consensus_json(const Event& x, std::int64_t start_ms) {
  nlohmann::json j = x;
  j.erase("at_ms");
  nlohmann::json result{{"t_ms", x.at_ms - start_ms}};
  result.update(j);
  return result;
}

} // namespace

nlohmann::json event_json(const messages::ballot_event& x, std::int64_t start_ms) {
  return consensus_json(x, start_ms);
}

nlohmann::json event_json(const messages::auction_event& x, std::int64_t start_ms) {
  return consensus_json(x, start_ms);
}

nlohmann::json event_json(const messages::channel_event& x, std::int64_t start_ms) {
  auto j = consensus_json(x, start_ms);
  // A channel event's wire JSON has every field of every kind; the line
  // leaves out those empty for this one (no channel yet, no agents, no
  // reason), which read back as empty.
  for (const auto* name :
       {"channel_id", "demand_id", "agents", "reason", "compromise_suggestion"}) {
    auto i = j.find(name);
    if (i != j.end() &&
        (i->is_null() || (i->is_string() && i->get_ref<const std::string&>().empty()) ||
         (i->is_array() && i->empty())))
      j.erase(i);
  }
  return j;
}

std::string timeline_line(const messages::channel_event& x, std::int64_t start_ms) {
  auto line = stamp(x.at_ms, start_ms) + "  " +
              (x.channel_id.empty() ? x.demand_id : x.channel_id) + "  round " +
              std::to_string(x.round) + "  " + to_string(x.kind);
  return x.reason.empty() ? line : line + ": " + x.reason;
}

std::string timeline_line(const messages::ballot_event& x, std::int64_t start_ms) {
  auto line = stamp(x.at_ms, start_ms) + "  " + x.ballot_id + "  ";
  if (x.spec)
    return line + "proposes \"" + x.topic + "\" (" + to_string(x.spec->strategy) + ")";
  if (x.cast)
    return line + x.cast->voter + " votes " + x.cast->option;
  if (x.outcome)
    return line + to_string(x.outcome->status) + ": " + x.outcome->reason;
  return line;
}

std::string timeline_line(const messages::auction_event& x, std::int64_t start_ms) {
  auto line = stamp(x.at_ms, start_ms) + "  " + x.auction_id + "  ";
  if (x.placed)
    return line + x.placed->bidder + " bids for " + x.task;
  if (x.outcome)
    return line + to_string(x.outcome->status) + ": " + x.outcome->reason;
  return line;
}

nlohmann::json event_json(const messages::negotiation_event& x,
                          const messages::negotiation_record& record,
                          std::int64_t start_ms) {
  return nlohmann::json{{"t_ms", x.at_ms() - start_ms},
                        {"type", messages::name_of(messages::topic_of(x))},
                        {"room", x.room_id},
                        {"negotiation", record}};
}

nlohmann::json event_json(const messages::problem_event& x, std::int64_t start_ms) {
  nlohmann::json j{{"t_ms", x.at_ms - start_ms},
                   {"type", messages::name_of(messages::topic_of(x))},
                   {"code", messages::to_code(x.code)},
                   {"message", x.message}};
  if (!x.room_id.empty())
    j["room"] = x.room_id;
  if (!x.negotiation_id.empty())
    j["negotiation_id"] = x.negotiation_id;
  if (!x.agent_id.empty())
    j["agent_id"] = x.agent_id;
  if (!x.message_id.empty())
    j["message_id"] = x.message_id;
  return j;
}

std::string timeline_line(const messages::negotiation_event& x,
                          const messages::negotiation_record& r, std::int64_t start_ms) {
  auto line = stamp(x.at_ms(), start_ms) + "  " + r.room_id + "  ";
  const auto& last = r.rounds.back();
  switch (x.kind) {
  case negotiation_event_kind::started:
    line += last.from_agent + " proposes " + describe(last.proposal, true) + " to " +
            r.responder + "  [" + r.id + "]";
    break;
  case negotiation_event_kind::updated:
    line += last.from_agent + " counters " + describe(last.proposal) + " (round " +
            std::to_string(last.round) + ")";
    if (!last.reason.empty())
      line += ": " + last.reason;
    break;
  case negotiation_event_kind::agreed:
    line += last.from_agent + " accepts. AGREED on " + describe(*r.final_proposal) +
            " after " + std::to_string(r.rounds.size()) + " rounds";
    break;
  case negotiation_event_kind::rejected:
    line += last.from_agent + " rejects. REJECTED";
    if (!r.status_reason.empty())
      line += ": " + r.status_reason;
    break;
  case negotiation_event_kind::expired:
    line += "EXPIRED: " + r.status_reason;
    break;
  }
  return line;
}

std::string timeline_line(const messages::problem_event& x, std::int64_t start_ms) {
  auto line = stamp(x.at_ms, start_ms) + "  " + (x.room_id.empty() ? "-" : x.room_id) +
              "  " + messages::to_string(x.severity) + " " + messages::to_code(x.code) +
              ": " + x.message;
  if (!x.agent_id.empty())
    line += " (from " + x.agent_id + ")";
  return line;
}

std::string timeline_summary(const run_summary& x) {
  return std::to_string(x.negotiations) +
         " negotiation(s): " + std::to_string(x.accepted) + " accepted, " +
         std::to_string(x.rejected) + " rejected, " + std::to_string(x.expired) +
         " expired; " + std::to_string(x.errors) + " error(s), " +
         std::to_string(x.warnings) + " warning(s)";
}

nlohmann::json summary_json(const run_summary& x, const demand_summary& d) {
  nlohmann::json j = x;
  j["demands"] = d.demands;
  j["demands_finalized"] = d.demands_finalized;
  j["demands_force_finalized"] = d.demands_force_finalized;
  j["demands_failed"] = d.demands_failed;
  j["demands_refused"] = d.demands_refused;
  j["channels"] = d.channels;
  j["channels_finalized"] = d.channels_finalized;
  j["channels_force_finalized"] = d.channels_force_finalized;
  j["channels_failed"] = d.channels_failed;
  j["expectations_failed"] = d.expectations_failed;
  return j;
}

std::string timeline_summary(const run_summary& x, const demand_summary& d) {
  return timeline_summary(x) + "; " + std::to_string(d.demands) +
         " demand(s): " + std::to_string(d.demands_finalized) + " finalized, " +
         std::to_string(d.demands_force_finalized) + " force finalized, " +
         std::to_string(d.demands_failed) + " failed, " +
         std::to_string(d.demands_refused) + " refused; " + std::to_string(d.channels) +
         " channel(s): " + std::to_string(d.channels_finalized) + " finalized, " +
         std::to_string(d.channels_force_finalized) + " force finalized, " +
         std::to_string(d.channels_failed) + " failed; " +
         std::to_string(d.expectations_failed) + " expectation(s) failed";
}

nlohmann::json event_json(const messages::agent_event& x, std::int64_t start_ms) {
  nlohmann::json j{{"t_ms", x.at_ms - start_ms},
                   {"type", messages::name_of(messages::topic_of(x))},
                   {"agent_id", x.agent_id}};
  if (!x.negotiation_id.empty())
    j["negotiation_id"] = x.negotiation_id;
  switch (x.kind) {
  case messages::agent_event_kind::message:
    j["text"] = x.text;
    break;
  case messages::agent_event_kind::tool_call:
    j["tool"] = x.name;
    j["input"] = x.input;
    j["result"] = x.text;
    break;
  case messages::agent_event_kind::decision:
    j["decision"] = x.name;
    j["reason"] = x.text;
    j["fallback"] = x.fallback;
    break;
  }
  return j;
}

std::string timeline_line(const messages::agent_event& x, std::int64_t start_ms) {
  auto line = stamp(x.at_ms, start_ms) + "  " + x.agent_id + "  ";
  switch (x.kind) {
  case messages::agent_event_kind::message:
    return line + "says: " + x.text;
  case messages::agent_event_kind::tool_call:
    return line + "calls " + x.name + " " + x.input + " -> " + x.text;
  case messages::agent_event_kind::decision:
    return line + "decides " + x.name + (x.fallback ? " (fallback)" : "") + ": " +
           x.text;
  }
  return line;
}

event_printer::event_printer(output_format format, std::ostream& out,
                             std::int64_t start_ms)
    : format_(format), out_(&out), start_ms_(start_ms) {}

template <class Event> void event_printer::emit(const Event& x) {
  if (format_ == output_format::json_lines)
    *out_ << event_json(x, start_ms_).dump() << '\n';
  else
    *out_ << timeline_line(x, start_ms_) << '\n';
  out_->flush();
}

void event_printer::print(const messages::negotiation_event& x) {
  auto& record = records_[x.negotiation_id];
  messages::apply(record, x);
  if (format_ == output_format::json_lines)
    *out_ << event_json(x, record, start_ms_).dump() << '\n';
  else
    *out_ << timeline_line(x, record, start_ms_) << '\n';
  out_->flush();
  if (messages::is_terminal(x))
    records_.erase(x.negotiation_id);
}

void event_printer::print(const messages::problem_event& x) {
  emit(x);
}

void event_printer::print(const messages::agent_event& x) {
  emit(x);
}

void event_printer::print(const messages::ballot_event& x) {
  emit(x);
}

void event_printer::print(const messages::auction_event& x) {
  emit(x);
}

void event_printer::print(const messages::channel_event& x) {
  emit(x);
}

void event_printer::print(const run_summary& x) {
  if (format_ == output_format::json_lines)
    *out_ << nlohmann::json(x).dump() << '\n';
  else
    *out_ << timeline_summary(x) << '\n';
  out_->flush();
}

void event_printer::print(const run_summary& x, const demand_summary& d) {
  if (format_ == output_format::json_lines)
    *out_ << summary_json(x, d).dump() << '\n';
  else
    *out_ << timeline_summary(x, d) << '\n';
  out_->flush();
}

} // namespace parley::cli
