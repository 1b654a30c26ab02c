#pragma once

#include <cstdint>
#include <string>

namespace parley::messages {

/// The coded errors of Parley. E001–E011 keep the numbers of the channel protocol's
/// original specification (docs/protocols/channels.md, "Error codes"); E012 on are the
/// bilateral protocol's, configuration's and scenario files' own.
enum class error_code : std::uint8_t {
  none = 0,
  invalid_request = 1,          ///< E001: malformed request or value.
  demand_not_found = 2,         ///< E002
  llm_unavailable = 3,          ///< E003
  llm_timeout = 4,              ///< E004
  no_candidates = 5,            ///< E005
  negotiation_timeout = 6,      ///< E006
  channel_not_found = 7,        ///< E007
  agent_not_found = 8,          ///< E008
  event_push_failed = 9,        ///< E009
  illegal_transition = 10,      ///< E010
  duplicate_message = 11,       ///< E011: replayed message id, ignored.
  negotiation_in_progress = 12, ///< E012: the room already has an active one.
  not_a_party = 13,             ///< E013: sender is neither initiator nor responder.
  out_of_turn = 14,             ///< E014: the party acted when it was not its turn.
  negotiation_not_found = 15,   ///< E015: no negotiation with that id.
  negotiation_not_active = 16,  ///< E016: the negotiation already ended.
  invalid_proposal = 17,        ///< E017: amount, currency or terms are not valid.
  room_not_found = 18,          ///< E018
  invalid_config = 19,          ///< E019
  invalid_scenario = 20,        ///< E020
  node_unavailable = 21,        ///< E021: the node hosting it died or shut down.
  not_eligible = 22,            ///< E022: not an eligible voter / invited bidder.
  already_cast = 23,            ///< E023: a second vote or bid; the first stands.
  voting_closed = 24,           ///< E024: the ballot or auction already resolved.
  invalid_vote = 25,            ///< E025: not one of the options (or a misplaced veto).
  invalid_bid = 26,             ///< E026: capability, load or duration out of range.
  invalid_ballot = 27,          ///< E027: a ballot or auction spec that cannot open.
  store_failed = 28,            ///< E028: the store's database refused or failed.
  unauthorized = 29,            ///< E029: no or a wrong bearer token (HTTP API).
  overloaded = 30,              ///< E030: the runtime did not answer in time; retry.
  request_too_large = 31,       ///< E031: a request body over the cap (HTTP API).
  route_not_found = 32,         ///< E032: no such HTTP route.
  method_not_allowed = 33,      ///< E033: the route exists, not with that method.
  already_exists = 34,          ///< E034: an agent or room with that id exists.
  message_id_reused = 35,       ///< E035: a message id reused for another move.
  headers_too_large = 36,       ///< E036: request headers over the cap (HTTP API).
  internal_error = 37,          ///< E037: the server failed on a request; nothing applied.
};

/// Returns the code as printed on the wire and in logs, e.g. "E012".
std::string to_code(error_code x);

/// Returns the enumerator name, e.g. "negotiation_in_progress" (CAF's renderer
/// and `error_code` JSON use it).
std::string to_string(error_code x);

/// Parses "E012" back; returns false for anything else.
bool from_code(const std::string& text, error_code& x);

/// The HTTP status the API answers `x` with: the channel protocol's original
/// statuses for E001–E011, Parley's own for the rest (docs/api.md lists them
/// all).
unsigned http_status(error_code x);

} // namespace parley::messages
