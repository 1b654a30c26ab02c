#include "actors/llm/text_reply.hpp"

namespace parley::actors::llm {

messages::llm_request prompt_model::request(std::uint64_t call_id,
                                            const text_prompt& prompt) const {
  return {call_id, build_text_request(provider, model, max_tokens, prompt)};
}

text_reply read_text_reply(provider_kind provider,
                           const messages::llm_response& response) {
  text_reply out;
  if (response.code != messages::error_code::none) {
    out.code = response.code;
    out.error = "LLM call failed (" + messages::to_code(response.code) +
                "): " + response.error;
    return out;
  }
  auto reply = parse_reply(provider, response.body);
  if (!reply.error.empty()) {
    out.code = messages::error_code::invalid_request;
    out.error = "unreadable LLM answer: " + reply.error;
    return out;
  }
  for (const auto& block : reply.content) {
    if (block.value("type", "") != "text" || !block.contains("text") ||
        !block["text"].is_string())
      continue;
    if (!out.text.empty())
      out.text += '\n';
    out.text += block["text"].get<std::string>();
  }
  return out;
}

} // namespace parley::actors::llm
