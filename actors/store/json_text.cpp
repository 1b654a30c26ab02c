#include "actors/store/json_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "actors/store/iso_time.hpp"

namespace parley::actors::store {

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out.push_back('"');
  // Most texts (ids, currencies) need no escape: one append.
  auto plain = std::find_if(s.begin(), s.end(), [](char c) {
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
  });
  out.append(s.data(), static_cast<std::size_t>(plain - s.begin()));
  for (char c : s.substr(static_cast<std::size_t>(plain - s.begin()))) {
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

/// Writes the literal `text` at `p`; returns the end.
template <std::size_t N> char* put(char* p, const char (&text)[N]) {
  std::memcpy(p, text, N - 1);
  return p + N - 1;
}

char* put_integer(char* p, std::int64_t x) {
  return std::to_chars(p, p + 24, x).ptr;
}

/// Appends buf[0, end): the parts of a text with a bounded size are
/// written to a buffer first and appended at once.
void flush(std::string& out, const char* buf, const char* end) {
  out.append(buf, static_cast<std::size_t>(end - buf));
}

char* put_action(char* p, messages::round_action x) {
  switch (x) {
  case messages::round_action::propose:
    return put(p, "propose");
  case messages::round_action::counter:
    return put(p, "counter");
  case messages::round_action::accept:
    return put(p, "accept");
  case messages::round_action::reject:
    break;
  }
  return put(p, "reject");
}

} // namespace

void append_proposal(std::string& out, const messages::proposal& x) {
  // Stored proposals name only what they set: escrow, description and
  // terms are left out at their defaults (false, "", {}), which is how the
  // JSON mapping reads a missing one back. Every round repeats its proposal,
  // so this keeps a row about a third shorter.
  char buf[48];
  auto p = put(buf, "{\"amount\":");
  p = put_integer(p, x.amount);
  p = put(p, ",\"currency\":");
  flush(out, buf, p);
  append_json_string(out, x.currency);
  if (x.escrow)
    out.append(",\"escrow\":true");
  if (!x.description.empty()) {
    out.append(",\"description\":");
    append_json_string(out, x.description);
  }
  // The terms are JSON object text already (checked where they came in).
  if (!x.terms.text.empty() && x.terms.text != "{}") {
    out.append(",\"terms\":");
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
  char buf[32 + iso_buffer_size];
  auto p = put(buf, "{\"round\":");
  p = put_integer(p, x.round);
  p = put(p, ",\"proposal\":");
  flush(out, buf, p);
  append_proposal(out, x.proposal);
  p = put(buf, ",\"timestamp\":\"");
  p += format_iso(x.timestamp, p);
  p = put(p, "\",\"from\":");
  flush(out, buf, p);
  append_json_string(out, x.from_agent);
  p = put(buf, ",\"action\":\"");
  p = put_action(p, x.action);
  *p++ = '"';
  flush(out, buf, p);
  if (!x.reason.empty()) {
    out.append(",\"reason\":");
    append_json_string(out, x.reason);
  }
  if (!x.message_id.empty()) {
    out.append(",\"message_id\":");
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
