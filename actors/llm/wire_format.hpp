#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parley::actors::llm {

/// The two wire formats an LLM agent speaks.
enum class provider_kind { anthropic, openai };

/// Returns "anthropic" or "openai".
std::string to_string(provider_kind x);

/// Parses "anthropic" or "openai"; returns false for anything else.
bool from_string(const std::string& text, provider_kind& x);

/// What a request carries. `messages` is the history in the Anthropic form
/// (`{"role", "content"}` where content is a string or a list of text,
/// tool_use and tool_result blocks); `tools` are `{name, description,
/// parameters}` objects.
struct request_parts {
  std::string model;
  int max_tokens = 1024;
  std::string system;
  const nlohmann::json* messages = nullptr;
  const std::vector<nlohmann::json>* tools = nullptr;
};

/// Builds the request body: Anthropic Messages API or OpenAI-compatible chat
/// completions with tools.
std::string build_request(provider_kind provider, const request_parts& parts);

/// A model's answer, mapped to the Anthropic form whatever the provider.
struct model_reply {
  /// Empty when the body was understood, otherwise why not.
  std::string error;
  /// Content blocks: {"type":"text","text"} and
  /// {"type":"tool_use","id","name","input"}. A tool call whose arguments are
  /// not JSON (OpenAI) keeps them as a string `input`, so that validation
  /// refuses it and the model hears why.
  nlohmann::json content = nlohmann::json::array();
  /// "tool_use" when the model asks for tools, otherwise what it said.
  std::string stop_reason;
};

/// Parses a 2xx body; never throws.
model_reply parse_reply(provider_kind provider, const std::string& body);

} // namespace parley::actors::llm
