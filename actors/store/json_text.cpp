#include "actors/store/json_text.hpp"

#include <charconv>
#include <cmath>

#include "actors/store/iso_time.hpp"

namespace parley::actors::store {

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out.push_back('"');
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (u < 0x20) {
        out += "\\u00";
        out.push_back(hex[u >> 4]);
        out.push_back(hex[u & 0xf]);
      } else {
        out.push_back(c);
      }
    }
  }
  out.push_back('"');
}

void append_json_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof(buf), x);
  out.append(buf, r.ptr);
}

namespace {

void append_integer(std::string& out, std::int64_t x) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), x);
  out.append(buf, r.ptr);
}

const char* action_name(messages::round_action x) {
  switch (x) {
  case messages::round_action::propose:
    return "propose";
  case messages::round_action::counter:
    return "counter";
  case messages::round_action::accept:
    return "accept";
  case messages::round_action::reject:
    break;
  }
  return "reject";
}

} // namespace

void append_proposal(std::string& out, const messages::proposal& x) {
  // Seed 003's proposals name only what they set: escrow, description and
  // terms are left out at their defaults (false, "", {}), which is how the
  // JSON mapping reads a missing one back. Every round repeats its proposal,
  // so this keeps a row about a third shorter.
  out += "{\"amount\":";
  append_integer(out, x.amount);
  out += ",\"currency\":";
  append_json_string(out, x.currency);
  if (x.escrow)
    out += ",\"escrow\":true";
  if (!x.description.empty()) {
    out += ",\"description\":";
    append_json_string(out, x.description);
  }
  // The terms are JSON object text already (checked where they came in).
  if (!x.terms.text.empty() && x.terms.text != "{}") {
    out += ",\"terms\":";
    out += x.terms.text;
  }
  out.push_back('}');
}

void append_split(std::string& out, const messages::incentive_split& x) {
  out += "{\"agent\":";
  append_json_number(out, x.agent);
  out += ",\"broker\":";
  append_json_number(out, x.broker);
  out += ",\"validator\":";
  append_json_number(out, x.validator);
  out += ",\"pool\":";
  append_json_number(out, x.pool);
  out.push_back('}');
}

void append_round(std::string& out, const messages::negotiation_round& x) {
  out += "{\"round\":";
  append_integer(out, x.round);
  out += ",\"proposal\":";
  append_proposal(out, x.proposal);
  out += ",\"timestamp\":\"";
  out += to_iso(x.timestamp);
  out += "\",\"from\":";
  append_json_string(out, x.from_agent);
  out += ",\"action\":\"";
  out += action_name(x.action);
  out.push_back('"');
  if (!x.reason.empty()) {
    out += ",\"reason\":";
    append_json_string(out, x.reason);
  }
  if (!x.message_id.empty()) {
    out += ",\"message_id\":";
    append_json_string(out, x.message_id);
  }
  out.push_back('}');
}

std::string proposal_text(const messages::proposal& x) {
  std::string out;
  out.reserve(64); // a proposal without description or terms fits
  append_proposal(out, x);
  return out;
}

std::string round_text(const messages::negotiation_round& x) {
  std::string out;
  out.reserve(192); // a round with such a proposal, a reason and a message id fits
  append_round(out, x);
  return out;
}

} // namespace parley::actors::store
