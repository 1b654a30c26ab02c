#pragma once

// JSON mapping of the LLM wire types (messages/llm.hpp), in the style of
// messages/json.hpp.

#include <nlohmann/json.hpp>

#include "messages/json_reader.hpp"
#include "messages/llm.hpp"

namespace parley::messages {

void to_json(nlohmann::json& j, const llm_request& x);
void read(const nlohmann::json& j, const std::string& path, llm_request& x);
void to_json(nlohmann::json& j, const llm_response& x);
void read(const nlohmann::json& j, const std::string& path, llm_response& x);
void to_json(nlohmann::json& j, const llm_attempt& x);
void read(const nlohmann::json& j, const std::string& path, llm_attempt& x);
void to_json(nlohmann::json& j, const agent_event_kind& x);
void read(const nlohmann::json& j, const std::string& path, agent_event_kind& x);
void to_json(nlohmann::json& j, const agent_event& x);
void read(const nlohmann::json& j, const std::string& path, agent_event& x);

void to_json(nlohmann::json& j, const transcript_entry& x);
void read(const nlohmann::json& j, const std::string& path, transcript_entry& x);
void to_json(nlohmann::json& j, const transcript_flush& x);
void read(const nlohmann::json& j, const std::string& path, transcript_flush& x);
void to_json(nlohmann::json& j, const negotiation_trigger& x);
void read(const nlohmann::json& j, const std::string& path, negotiation_trigger& x);
void to_json(nlohmann::json& j, const tool_definition& x);
void read(const nlohmann::json& j, const std::string& path, tool_definition& x);
void to_json(nlohmann::json& j, const set_tools& x);
void read(const nlohmann::json& j, const std::string& path, set_tools& x);

} // namespace parley::messages
