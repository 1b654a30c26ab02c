#pragma once

#include <string>
#include <vector>

#include "messages/llm.hpp"

namespace parley::actors::llm {

/// The tools a room sets on its LLM agents (docs/protocols/llm-agent.md, "Tools";
/// without the handlers, which the agent binds by name): analyze_and_propose,
/// evaluate_proposal (decision accept | counter | reject) and send_message_to_user,
/// each with a JSON-schema `parameters` object.
const std::vector<messages::tool_definition>& agent_tools();

} // namespace parley::actors::llm
