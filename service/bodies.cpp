#include "service/bodies.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "messages/input_limits.hpp"
#include "messages/json.hpp"
#include "messages/time_limits.hpp"
#include "messages/utf8.hpp"

namespace parley::service {

using messages::json_error;

nlohmann::json parse_body(const std::string& body) {
  nlohmann::json j;
  try {
    j = messages::parse_json(body);
  } catch (const messages::json_syntax_error& e) {
    // Not JSON at all: the fault is the body's, not a field's; the message
    // keeps the line and column when it has them (once: an error without
    // them already names the whole document).
    if (e.path().empty())
      throw;
    throw json_error({}, e.what());
  }
  if (!j.is_object())
    throw json_error({}, "expected a JSON object, got " + messages::json_kind(j));
  messages::check_input_limits(j);
  return j;
}

void check_id(const std::string& x, const std::string& path) {
  if (x.empty())
    throw json_error(path, "must not be empty");
  messages::check_id_length(x, path);
}

bool is_uuid(const std::string& x) {
  if (x.size() != 36)
    return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (x[i] != '-')
        return false;
    } else if (!std::isxdigit(static_cast<unsigned char>(x[i]))) {
      return false;
    }
  }
  return true;
}

void check_uuid(const std::string& x, const std::string& path) {
  if (!is_uuid(x))
    throw json_error(
        path, "expected a UUID, got \"" +
                  messages::escape_invalid_utf8(messages::utf8_prefix(x, 64)) + "\"");
}

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

} // namespace

std::string percent_decode(std::string_view x, bool plus_is_space,
                           const std::string& path) {
  std::string out;
  out.reserve(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (plus_is_space && x[i] == '+') {
      out += ' ';
    } else if (x[i] == '%') {
      if (i + 2 >= x.size() || hex_digit(x[i + 1]) < 0 || hex_digit(x[i + 2]) < 0)
        throw json_error(path, "malformed percent-encoding");
      out += static_cast<char>(hex_digit(x[i + 1]) * 16 + hex_digit(x[i + 2]));
      i += 2;
    } else {
      out += x[i];
    }
  }
  if (!messages::is_utf8(out))
    throw json_error(path, "not UTF-8 once percent-decoded");
  return out;
}

namespace {

/// Decodes a query component (`%XX`, and `+` for a space).
std::string decode_component(const std::string& x, const std::string& path) {
  return percent_decode(x, true, path);
}

bool parse_bool(const std::string& x, const std::string& path) {
  if (x == "true")
    return true;
  if (x == "false")
    return false;
  throw json_error(path, "expected true or false, got \"" + x + "\"");
}

} // namespace

void for_each_parameter(
    const std::string& query,
    const std::function<void(const std::string& key, const std::string& value)>& take) {
  std::set<std::string> seen;
  std::size_t begin = 0;
  while (begin < query.size()) {
    auto end = query.find('&', begin);
    if (end == std::string::npos)
      end = query.size();
    auto part = query.substr(begin, end - begin);
    begin = end + 1;
    if (part.empty())
      continue;
    auto eq = part.find('=');
    auto key = decode_component(part.substr(0, eq), "(query)");
    auto value = eq == std::string::npos ? std::string{}
                                         : decode_component(part.substr(eq + 1), key);
    if (!seen.insert(key).second)
      throw json_error(key, "given twice");
    take(key, value);
  }
}

messages::store_query read_query(const std::string& query) {
  messages::store_query q;
  for_each_parameter(query, [&q](const std::string& key, const std::string& value) {
    if (key == "initiator" || key == "responder") {
      check_id(value, key);
      (key == "initiator" ? q.initiator : q.responder) = value;
    } else if (key == "state") {
      q.state = value;
    } else if (key == "active") {
      q.active_only = parse_bool(value, key);
    } else if (key == "intent_id") {
      check_uuid(value, key);
      q.intent_id = value;
    } else if (key == "converging_above") {
      auto j = nlohmann::json::parse(value, nullptr, false);
      if (j.is_discarded() || !j.is_number() || j.get<double>() < 0 ||
          j.get<double>() > 1)
        throw json_error(key, "expected a number within 0..1, got \"" + value + "\"");
      q.min_convergence = j.get<double>();
    } else if (key == "cursor") {
      messages::check_id_length(value, key);
      q.cursor = value;
    } else if (key == "limit") {
      auto j = nlohmann::json::parse(value, nullptr, false);
      if (j.is_discarded() || !j.is_number_integer() || j.get<std::int64_t>() < 1)
        throw json_error(key, "expected a positive integer, got \"" + value + "\"");
      q.limit = static_cast<std::int32_t>(std::min<std::int64_t>(
          j.get<std::int64_t>(), messages::store_query::max_limit));
    } else {
      throw json_error(key,
                       "unknown query parameter (expected initiator, responder, "
                       "state, active, intent_id, converging_above, cursor, limit)");
    }
  });
  return q;
}

messages::agent_spec read_agent(const nlohmann::json& j) {
  messages::agent_spec x;
  messages::read(j, {}, x);
  check_id(x.id, "id");
  if (x.brain.kind == messages::brain_kind::script && x.brain.script.empty())
    throw json_error("brain.script", "a script brain needs at least one reply");
  return x;
}

messages::room_request read_room(const nlohmann::json& j) {
  messages::room_request x;
  messages::read(j, {}, x);
  check_id(x.id, "id");
  if (x.members.size() < 2)
    throw json_error("members", "a room needs at least two members");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < x.members.size(); ++i) {
    auto path = messages::path_index("members", i);
    check_id(x.members[i], path);
    if (!seen.insert(x.members[i]).second)
      throw json_error(path, "\"" + x.members[i] + "\" is listed twice");
  }
  return x;
}

namespace {

void check_proposal(const messages::proposal& x, const std::string& path) {
  if (auto why = messages::validate(x); !why.empty())
    throw json_error(path, why);
}

} // namespace

negotiation_body read_negotiation(const nlohmann::json& j) {
  negotiation_body x;
  auto& s = x.start;
  messages::object_reader r{j, {}};
  r.optional("room_id", x.room_id);
  r.required("initiator", s.initiator);
  r.required("responder", s.responder);
  r.required("proposal", s.proposal);
  r.optional("intent_id", s.intent_id);
  r.optional("max_rounds", s.max_rounds);
  std::int64_t expires_in_s = 0;
  r.optional("expires_in", expires_in_s);
  r.done();
  if (r.has("room_id"))
    check_id(x.room_id, "room_id");
  check_id(s.initiator, "initiator");
  check_id(s.responder, "responder");
  if (s.initiator == s.responder)
    throw json_error("responder", "must differ from the initiator");
  check_proposal(s.proposal, "proposal");
  if (r.has("intent_id"))
    check_uuid(s.intent_id, "intent_id");
  if (r.has("max_rounds") && (s.max_rounds < 1 || s.max_rounds > 20))
    throw json_error("max_rounds",
                     "must be within 1..20, got " + std::to_string(s.max_rounds));
  if (r.has("expires_in")) {
    if (auto why =
            messages::check_range(expires_in_s, 1, messages::max_delay_ms / 1000);
        !why.empty())
      throw json_error("expires_in", why);
    s.expires_in_ms = expires_in_s * 1000;
  }
  return x;
}

move_body read_move(const nlohmann::json& j, const std::string& negotiation_id) {
  move_body x;
  messages::object_reader r{j, {}};
  std::string message_id;
  std::string from;
  std::string reason;
  messages::proposal proposal;
  r.required("message_id", message_id);
  r.required("from", from);
  r.required("action", x.action);
  auto has_proposal = r.has("proposal");
  if (has_proposal)
    r.required("proposal", proposal);
  r.optional("reason", reason);
  r.done();
  check_id(message_id, "message_id");
  check_id(from, "from");
  messages::check_length(reason, messages::max_text_bytes, "reason");
  switch (x.action) {
  case messages::round_action::counter:
    if (!has_proposal)
      throw json_error("proposal", "a counter needs a proposal");
    check_proposal(proposal, "proposal");
    x.counter = {message_id, negotiation_id, from, proposal, reason};
    break;
  case messages::round_action::accept:
    if (has_proposal)
      throw json_error("proposal", "an accept takes the current proposal; send none");
    x.accept = {message_id, negotiation_id, from};
    break;
  case messages::round_action::reject:
    if (has_proposal)
      throw json_error("proposal", "a reject carries no proposal");
    x.reject = {message_id, negotiation_id, from, reason};
    break;
  case messages::round_action::propose:
    throw json_error("action",
                     "expected one of counter, accept, reject, got \"propose\"");
  }
  return x;
}

} // namespace parley::service
