#include "messages/llm_json.hpp"

#include "messages/json.hpp"

namespace parley::messages {

using nlohmann::json;

void to_json(json& j, const llm_request& x) {
  j = json{{"call_id", x.call_id}, {"body", x.body}};
}

void read(const json& j, const std::string& path, llm_request& x) {
  object_reader r{j, path};
  r.required("call_id", x.call_id);
  r.required("body", x.body);
  r.done();
}

namespace {

// llm_response and llm_attempt share these fields.

template <class Outcome> json outcome_json(const Outcome& x) {
  json j{{"call_id", x.call_id}, {"status", x.status}, {"body", x.body}};
  if (x.code != error_code::none) {
    j["code"] = x.code;
    j["error"] = x.error;
  }
  return j;
}

template <class Outcome> void read_outcome(object_reader& r, Outcome& x) {
  r.required("call_id", x.call_id);
  r.required("status", x.status);
  r.optional("body", x.body);
  r.optional("code", x.code);
  r.optional("error", x.error);
}

} // namespace

void to_json(json& j, const llm_response& x) {
  j = outcome_json(x);
}

void read(const json& j, const std::string& path, llm_response& x) {
  object_reader r{j, path};
  read_outcome(r, x);
  r.done();
}

void to_json(json& j, const llm_attempt& x) {
  j = outcome_json(x);
  if (x.retry_after_ms)
    j["retry_after_ms"] = *x.retry_after_ms;
}

void read(const json& j, const std::string& path, llm_attempt& x) {
  object_reader r{j, path};
  read_outcome(r, x);
  r.optional("retry_after_ms", x.retry_after_ms);
  r.done();
}

void to_json(json& j, const agent_event_kind& x) {
  j = to_string(x);
}

void read(const json& j, const std::string& path, agent_event_kind& x) {
  read_enum(j, path, x, "message | tool_call | decision");
}

void to_json(json& j, const agent_event& x) {
  j = json{{"type", name_of(topic_of(x))},    {"at_ms", x.at_ms},
           {"agent_id", x.agent_id}, {"negotiation_id", x.negotiation_id},
           {"text", x.text},         {"name", x.name},
           {"input", x.input},       {"fallback", x.fallback}};
}

void read(const json& j, const std::string& path, agent_event& x) {
  object_reader r{j, path};
  std::string type;
  r.required("type", type);
  if (type.rfind("agent.", 0) != 0 || !from_string(type.substr(6), x.kind))
    throw json_error(
        r.path_of("type"),
        "expected agent.message | agent.tool_call | agent.decision, got \"" + type +
            "\"");
  r.required("at_ms", x.at_ms);
  r.required("agent_id", x.agent_id);
  r.optional("negotiation_id", x.negotiation_id);
  r.optional("text", x.text);
  r.optional("name", x.name);
  r.optional("input", x.input);
  r.optional("fallback", x.fallback);
  r.done();
}

void to_json(json& j, const transcript_entry& x) {
  j = json{{"source", x.source}, {"speaker", x.speaker}, {"text", x.text}};
}

void read(const json& j, const std::string& path, transcript_entry& x) {
  object_reader r{j, path};
  r.optional("source", x.source);
  r.required("speaker", x.speaker);
  r.required("text", x.text);
  r.done();
}

void to_json(json& j, const transcript_flush& x) {
  j = json{{"generation", x.generation}};
}

void read(const json& j, const std::string& path, transcript_flush& x) {
  object_reader r{j, path};
  r.required("generation", x.generation);
  r.done();
}

void to_json(json& j, const negotiation_trigger& x) {
  j = json{{"type", x.type},
           {"matched_text", x.matched_text},
           {"confidence", x.confidence},
           {"context", x.context},
           {"responder", x.responder}};
}

void read(const json& j, const std::string& path, negotiation_trigger& x) {
  object_reader r{j, path};
  r.required("type", x.type);
  r.required("matched_text", x.matched_text);
  r.required("confidence", x.confidence);
  r.optional("context", x.context);
  r.required("responder", x.responder);
  r.done();
}

void to_json(json& j, const tool_definition& x) {
  j = json{{"name", x.name}, {"description", x.description}, {"parameters", x.parameters}};
}

void read(const json& j, const std::string& path, tool_definition& x) {
  object_reader r{j, path};
  r.required("name", x.name);
  r.optional("description", x.description);
  r.required("parameters", x.parameters);
  r.done();
}

void to_json(json& j, const set_tools& x) {
  j = json{{"tools", x.tools}};
}

void read(const json& j, const std::string& path, set_tools& x) {
  object_reader r{j, path};
  r.required("tools", x.tools);
  r.done();
}

} // namespace parley::messages
