#include "messages/llm.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* agent_event_kind_names[] = {"message", "tool_call", "decision"};

} // namespace

std::string to_string(agent_event_kind x) {
  return enum_name(agent_event_kind_names, x);
}

bool from_string(const std::string& text, agent_event_kind& x) {
  return enum_from_name(agent_event_kind_names, text, x);
}

topic topic_of(const agent_event& x) {
  switch (x.kind) {
  case agent_event_kind::message:
    return topic::agent_message;
  case agent_event_kind::tool_call:
    return topic::agent_tool_call;
  case agent_event_kind::decision:
    break;
  }
  return topic::agent_decision;
}

} // namespace parley::messages
