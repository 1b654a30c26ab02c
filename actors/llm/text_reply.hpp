#pragma once

// How a caller of the channel protocol's JSON prompts (json_prompt.hpp) asks its model
// and what it makes of the HTTP client's answer: the model's text, or why
// there is none. Shared by the callers that ask one prompt per call (channel
// members, the coordinator) so that each asks and reads the same way.

#include <cstdint>
#include <string>

#include "actors/llm/json_prompt.hpp"
#include "actors/llm/wire_format.hpp"
#include "messages/error_code.hpp"
#include "messages/handles/llm_client.hpp"
#include "messages/llm.hpp"

namespace parley::actors::llm {

/// A model that answers JSON prompts, and the client it is called through:
/// the world's client of its provider, shared with every LLM caller, so that
/// the client's circuit breaker and concurrency budget cover them all.
struct prompt_model {
  /// Unset: there is no model.
  llm_client_actor client;
  provider_kind provider = provider_kind::anthropic;
  std::string model = "claude-sonnet-4-5-20250929";
  int max_tokens = 1024;

  /// The request of call `call_id` asking this model for `prompt`'s answer.
  messages::llm_request request(std::uint64_t call_id, const text_prompt& prompt) const;
};

/// The text of a model's answer, or why the call gave none.
struct text_reply {
  /// The answer's text blocks, joined by newlines.
  std::string text;
  /// Empty when `text` is the model's answer; otherwise why there is none
  /// (the client's failure, or a body that is not a model's answer).
  std::string error;
  /// E003 or E004 when the call failed (unavailable, circuit open, timeout);
  /// E001 for a body that could not be read; none otherwise.
  messages::error_code code = messages::error_code::none;

  bool ok() const noexcept { return error.empty(); }
};

/// Reads the client's `response` to a request built by build_text_request
/// for `provider`. Never throws.
text_reply read_text_reply(provider_kind provider,
                           const messages::llm_response& response);

} // namespace parley::actors::llm
