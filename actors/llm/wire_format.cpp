#include "actors/llm/wire_format.hpp"

namespace parley::actors::llm {

using nlohmann::json;

std::string to_string(provider_kind x) {
  return x == provider_kind::openai ? "openai" : "anthropic";
}

bool from_string(const std::string& text, provider_kind& x) {
  if (text == "anthropic") {
    x = provider_kind::anthropic;
    return true;
  }
  if (text == "openai") {
    x = provider_kind::openai;
    return true;
  }
  return false;
}

namespace {

json anthropic_request(const request_parts& parts) {
  json j = {{"model", parts.model},
            {"max_tokens", parts.max_tokens},
            {"system", parts.system},
            {"messages", parts.messages ? *parts.messages : json::array()}};
  if (parts.tools && !parts.tools->empty()) {
    json tools = json::array();
    for (const auto& t : *parts.tools)
      tools.push_back({{"name", t.at("name")},
                       {"description", t.at("description")},
                       {"input_schema", t.at("parameters")}});
    j["tools"] = std::move(tools);
  }
  return j;
}

/// Maps one Anthropic-form message to OpenAI chat messages.
void append_openai(json& out, const json& message) {
  const auto& role = message.at("role");
  const auto& content = message.at("content");
  if (content.is_string()) {
    out.push_back({{"role", role}, {"content", content}});
    return;
  }
  if (role == "assistant") {
    std::string text;
    json calls = json::array();
    for (const auto& block : content) {
      if (block.value("type", "") == "text") {
        text += block.value("text", "");
      } else if (block.value("type", "") == "tool_use") {
        const auto& input = block.at("input");
        calls.push_back({{"id", block.at("id")},
                         {"type", "function"},
                         {"function",
                          {{"name", block.at("name")},
                           {"arguments", input.is_string() ? input.get<std::string>()
                                                           : input.dump()}}}});
      }
    }
    json m = {{"role", "assistant"}, {"content", text.empty() ? json() : json(text)}};
    if (!calls.empty())
      m["tool_calls"] = std::move(calls);
    out.push_back(std::move(m));
    return;
  }
  for (const auto& block : content) {
    if (block.value("type", "") == "tool_result")
      out.push_back({{"role", "tool"},
                     {"tool_call_id", block.at("tool_use_id")},
                     {"content", block.at("content")}});
    else if (block.value("type", "") == "text")
      out.push_back({{"role", "user"}, {"content", block.value("text", "")}});
  }
}

json openai_request(const request_parts& parts) {
  json messages = json::array();
  messages.push_back({{"role", "system"}, {"content", parts.system}});
  if (parts.messages)
    for (const auto& m : *parts.messages)
      append_openai(messages, m);
  json j = {{"model", parts.model},
            {"max_tokens", parts.max_tokens},
            {"messages", std::move(messages)}};
  if (parts.tools && !parts.tools->empty()) {
    json tools = json::array();
    for (const auto& t : *parts.tools)
      tools.push_back({{"type", "function"},
                       {"function",
                        {{"name", t.at("name")},
                         {"description", t.at("description")},
                         {"parameters", t.at("parameters")}}}});
    j["tools"] = std::move(tools);
  }
  return j;
}

/// The string at `key` of the object `j`, or an empty string when there is
/// none (`json::value` would throw on another type).
std::string string_field(const json& j, const char* key) {
  auto i = j.find(key);
  return i != j.end() && i->is_string() ? i->get<std::string>() : std::string{};
}

model_reply anthropic_reply(const json& j) {
  model_reply r;
  if (!j.is_object() || !j.contains("content") || !j["content"].is_array()) {
    r.error = "the answer has no content list";
    return r;
  }
  for (const auto& block : j["content"]) {
    if (!block.is_object())
      continue;
    auto type = string_field(block, "type");
    if (type == "text" && block.contains("text") && block["text"].is_string()) {
      r.content.push_back({{"type", "text"}, {"text", block["text"]}});
    } else if (type == "tool_use") {
      if (!block.contains("id") || !block["id"].is_string() ||
          !block.contains("name") || !block["name"].is_string()) {
        r.error = "a tool_use block has no id or name";
        return r;
      }
      r.content.push_back(
          {{"type", "tool_use"},
           {"id", block["id"]},
           {"name", block["name"]},
           {"input", block.contains("input") ? block["input"] : json()}});
    }
  }
  r.stop_reason = string_field(j, "stop_reason");
  return r;
}

model_reply openai_reply(const json& j) {
  model_reply r;
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() ||
      j["choices"].empty() || !j["choices"][0].is_object() ||
      !j["choices"][0].contains("message") || !j["choices"][0]["message"].is_object()) {
    r.error = "the answer has no choices[0].message";
    return r;
  }
  const auto& choice = j["choices"][0];
  const auto& message = choice["message"];
  if (message.contains("content") && message["content"].is_string() &&
      !message["content"].get<std::string>().empty())
    r.content.push_back({{"type", "text"}, {"text", message["content"]}});
  if (message.contains("tool_calls") && message["tool_calls"].is_array()) {
    for (const auto& call : message["tool_calls"]) {
      if (!call.is_object() || !call.contains("id") || !call["id"].is_string() ||
          !call.contains("function") || !call["function"].is_object() ||
          !call["function"].contains("name") || !call["function"]["name"].is_string()) {
        r.error = "a tool call has no id or function name";
        return r;
      }
      const auto& fn = call["function"];
      json input;
      if (fn.contains("arguments") && fn["arguments"].is_string()) {
        auto text = fn["arguments"].get<std::string>();
        input = json::parse(text, nullptr, false);
        if (input.is_discarded())
          input = text; // refused by validation, so the model hears why
      } else if (fn.contains("arguments")) {
        input = fn["arguments"];
      }
      r.content.push_back({{"type", "tool_use"},
                           {"id", call["id"]},
                           {"name", fn["name"]},
                           {"input", input}});
    }
  }
  auto finish = string_field(choice, "finish_reason");
  bool has_calls = false;
  for (const auto& b : r.content)
    has_calls = has_calls || b["type"] == "tool_use";
  r.stop_reason = finish == "tool_calls" || has_calls ? "tool_use" : finish;
  return r;
}

} // namespace

std::string build_request(provider_kind provider, const request_parts& parts) {
  auto j = provider == provider_kind::openai ? openai_request(parts)
                                             : anthropic_request(parts);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

model_reply parse_reply(provider_kind provider, const std::string& body) {
  auto j = json::parse(body, nullptr, false);
  if (j.is_discarded()) {
    model_reply r;
    r.error = "the answer is not JSON";
    return r;
  }
  return provider == provider_kind::openai ? openai_reply(j) : anthropic_reply(j);
}

} // namespace parley::actors::llm
