#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/error_code.hpp"
#include "messages/fields.hpp"
#include "messages/proposal.hpp"
#include "messages/topic.hpp"

namespace parley::messages {

/// One call to an LLM provider: the request body in the provider's wire
/// format, built by the caller. The HTTP client actor adds the endpoint and
/// the key (which therefore never travels in a message).
struct llm_request {
  std::uint64_t call_id = 0;
  std::string body;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, llm_request& x) {
  return f(caf::meta::type_name("llm_request"), field("call_id", x.call_id),
           field("body", x.body));
}

/// The outcome of an `llm_request`: the body of a 2xx answer, or a coded
/// failure (E003 provider unavailable or circuit open, E004 timeout).
struct llm_response {
  std::uint64_t call_id = 0;
  /// The HTTP status of the last attempt (0 when none completed).
  std::int32_t status = 0;
  std::string body;
  error_code code = error_code::none;
  std::string error;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, llm_response& x) {
  return f(caf::meta::type_name("llm_response"), field("call_id", x.call_id),
           field("status", x.status), optional_field("body", x.body),
           optional_field("code", x.code), optional_field("error", x.error));
}

/// The outcome of one HTTP attempt at an `llm_request`, which the worker that
/// made it reports to the HTTP client; the client decides what follows.
struct llm_attempt {
  std::uint64_t call_id = 0;
  /// none when the provider answered (whatever the status); llm_timeout when
  /// the attempt timed out; llm_unavailable when it failed otherwise.
  error_code code = error_code::none;
  /// Why the attempt failed without an answer (libcurl's text).
  std::string error;
  /// The HTTP status (0 when no answer came).
  std::int32_t status = 0;
  std::string body;
  /// The answer's retry-after, in milliseconds, when it had one.
  caf::optional<std::int64_t> retry_after_ms;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, llm_attempt& x) {
  return f(caf::meta::type_name("llm_attempt"), field("call_id", x.call_id),
           optional_field("code", x.code), optional_field("error", x.error),
           field("status", x.status), optional_field("body", x.body),
           omittable_field("retry_after_ms", x.retry_after_ms));
}

/// What an LLM agent reports on the bus; the topic is "agent.<kind>".
enum class agent_event_kind : std::uint8_t { message, tool_call, decision };

/// An agent's text for its user, a tool it ran, or a decision it reached.
struct agent_event {
  agent_event_kind kind = agent_event_kind::message;
  std::int64_t at_ms = 0;
  std::string agent_id;
  std::string negotiation_id;
  /// The model's text (message), the tool's result (tool_call) or the
  /// decision's reason (decision).
  std::string text;
  /// The tool's name (tool_call) or the decision's action (decision).
  std::string name;
  /// The tool's input as JSON text (tool_call).
  std::string input;
  /// True when the rule brain decided because the LLM could not.
  bool fallback = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_event& x) {
  return f(caf::meta::type_name("agent_event"), hand_written_field("type", x.kind),
           field("at_ms", x.at_ms), field("agent_id", x.agent_id),
           optional_field("negotiation_id", x.negotiation_id),
           optional_field("text", x.text), optional_field("name", x.name),
           optional_field("input", x.input), optional_field("fallback", x.fallback));
}

/// One line of a conversation a room hears
/// (docs/protocols/llm-agent.md, "Transcript batching"): sent to a room, which passes
/// it to every participant and to its trigger detector.
struct transcript_entry {
  /// Where the line came from, e.g. "voice" or "chat".
  std::string source;
  /// Who said it: a participant's agent id when the speaker is a user in the
  /// room.
  std::string speaker;
  std::string text;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, transcript_entry& x) {
  return f(caf::meta::type_name("transcript_entry"), optional_field("source", x.source),
           field("speaker", x.speaker), field("text", x.text));
}

/// The batching timer an LLM agent sends itself; a stale generation is
/// ignored (CAF 0.17 cannot cancel a delayed message).
struct transcript_flush {
  std::uint64_t generation = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, transcript_flush& x) {
  return f(caf::meta::type_name("transcript_flush"), field("generation", x.generation));
}

/// A room's trigger detector asks an agent to start a negotiation
/// (docs/protocols/llm-agent.md, "Triggers"); the sender is the room.
struct negotiation_trigger {
  /// "amount" or "agreement".
  std::string type;
  std::string matched_text;
  /// 0..1 (never NaN).
  double confidence = 0;
  /// The recent conversation, one "[source] speaker: text" line per entry.
  std::string context;
  /// The agent the proposal goes to.
  std::string responder;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_trigger& x) {
  return f(caf::meta::type_name("negotiation_trigger"), field("type", x.type),
           field("matched_text", x.matched_text), field("confidence", x.confidence),
           optional_field("context", x.context), field("responder", x.responder));
}

/// A tool a room offers an agent's model (docs/protocols/llm-agent.md, "Tools"; a
/// definition without its handler: handlers live in the agent and are bound by name).
struct tool_definition {
  std::string name;
  std::string description;
  /// The JSON schema of the tool's input.
  json_object parameters;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, tool_definition& x) {
  return f(caf::meta::type_name("tool_definition"), field("name", x.name),
           optional_field("description", x.description),
           field("parameters", x.parameters));
}

/// A room sets the tools of an LLM agent after it starts
/// (docs/protocols/llm-agent.md, "Tools"); they replace any set before. The sender is
/// the room.
struct set_tools {
  std::vector<tool_definition> tools;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, set_tools& x) {
  return f(caf::meta::type_name("set_tools"), field("tools", x.tools));
}

std::string to_string(agent_event_kind x);
bool from_string(const std::string& text, agent_event_kind& x);

/// The bus topic of an agent event, e.g. "agent.decision".
topic topic_of(const agent_event& x);

} // namespace parley::messages
