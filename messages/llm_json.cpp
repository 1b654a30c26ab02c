#include "messages/llm_json.hpp"

#include "messages/json.hpp"
#include "messages/json_fields.hpp"

namespace parley::messages {

using nlohmann::json;

PARLEY_JSON_FROM_FIELDS(llm_request)
PARLEY_JSON_FROM_FIELDS(transcript_entry)
PARLEY_JSON_FROM_FIELDS(transcript_flush)
PARLEY_JSON_FROM_FIELDS(negotiation_trigger)
PARLEY_JSON_FROM_FIELDS(tool_definition)
PARLEY_JSON_FROM_FIELDS(set_tools)

namespace {

/// An outcome's code and error are written only when it failed.
template <class Outcome> void write_outcome(json& j, const Outcome& x) {
  write_fields(j, x);
  if (x.code == error_code::none) {
    j.erase("code");
    j.erase("error");
  }
}

} // namespace

void to_json(json& j, const llm_response& x) {
  write_outcome(j, x);
}

void read(const json& j, const std::string& path, llm_response& x) {
  read_fields(j, path, x);
}

void to_json(json& j, const llm_attempt& x) {
  write_outcome(j, x);
}

void read(const json& j, const std::string& path, llm_attempt& x) {
  read_fields(j, path, x);
}

// The kind is written as its name, not as CAF's integer.
void to_json(json& j, const agent_event_kind& x) {
  j = to_string(x);
}

void read(const json& j, const std::string& path, agent_event_kind& x) {
  read_enum(j, path, x, "message | tool_call | decision");
}

void to_json(json& j, const agent_event& x) {
  write_event(j, x);
}

void read(const json& j, const std::string& path, agent_event& x) {
  read_event(j, path, x, "agent.", "message | tool_call | decision");
}

} // namespace parley::messages
