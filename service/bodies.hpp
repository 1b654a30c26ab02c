#pragma once

// The API's request bodies: parsed strictly (unknown fields, wrong types,
// values out of range and malformed UUIDs are refused, naming the field),
// into the runtime's own message types. Each throws messages::json_error,
// whose path is the field at fault; nothing is applied before a body has
// been read whole.

#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"
#include "messages/api.hpp"
#include "messages/commands.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/store.hpp"

namespace parley::service {

/// Parses a JSON body strictly (messages::parse_json: a key given twice is
/// refused): an object, within messages/input_limits.hpp's limits.
nlohmann::json parse_body(const std::string& body);

/// `POST /agents`: an agent_spec by its field list (id; profile and brain
/// are optional).
messages::agent_spec read_agent(const nlohmann::json& j);

/// `POST /rooms`: a room_request by its field list (id, members).
messages::room_request read_room(const nlohmann::json& j);

/// `POST /negotiations`.
struct negotiation_body {
  /// Empty: the pair's own room.
  std::string room_id;
  messages::start_negotiation start;
};

/// Written by hand: `expires_in` is in seconds and `room_id` picks the room,
/// which start_negotiation does not carry; the proposal is read by its
/// field list.
negotiation_body read_negotiation(const nlohmann::json& j);

/// `POST /negotiations/{id}/messages`: a counter, accept or reject.
struct move_body {
  messages::round_action action = messages::round_action::counter;
  messages::agent_counter counter;
  messages::agent_accept accept;
  messages::agent_reject reject;
};

/// Written by hand: one body (`action`, `from`) stands for three agent
/// message types; the proposal is read by its field list.
move_body read_move(const nlohmann::json& j, const std::string& negotiation_id);

/// Calls `take(key, value)` for each `key=value` of `query` (percent-decoded,
/// `+` a space; an empty part skipped); throws json_error naming a key
/// given twice, or one whose escapes are malformed.
void for_each_parameter(
    const std::string& query,
    const std::function<void(const std::string& key, const std::string& value)>& take);

/// `GET /negotiations?...`: the query patterns
/// (docs/protocols/record-and-schema.md, "Query patterns") as query parameters
/// (initiator, responder, state, active, intent_id, converging_above, cursor, limit;
/// `limit` is capped at store_query::max_limit). Throws json_error naming the
/// parameter.
messages::store_query read_query(const std::string& query);

/// Decodes `%XX` escapes (and, with `plus_is_space`, `+` as a space, as in a
/// query); throws json_error at `path` when an escape is malformed or the
/// result is not UTF-8 (no JSON answer could echo it).
std::string percent_decode(std::string_view x, bool plus_is_space,
                           const std::string& path);

/// Whether `x` is a UUID in its canonical text form (8-4-4-4-12 hex).
bool is_uuid(const std::string& x);

/// Throws json_error at `path` unless `x` is a UUID.
void check_uuid(const std::string& x, const std::string& path);

/// Throws json_error at `path` unless `x` is a non-empty id of at most
/// messages::max_id_bytes without a control character
/// (messages::check_id_length).
void check_id(const std::string& x, const std::string& path);

} // namespace parley::service
