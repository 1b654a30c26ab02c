#pragma once

#include <cstdint>
#include <string>

#include "caf/fwd.hpp"

#include "actors/llm/wire_format.hpp"

namespace parley::actors::http {

/// One provider endpoint and how calls to it are made.
struct llm_client_options {
  llm::provider_kind provider = llm::provider_kind::anthropic;
  /// e.g. "https://api.anthropic.com" or "http://127.0.0.1:8080".
  std::string base_url = "https://api.anthropic.com";
  /// Sent as x-api-key (Anthropic) or a bearer token (OpenAI); never logged,
  /// never put in a message or an event.
  std::string api_key;
  /// Calls in flight at once over all agents; more wait in order.
  std::int32_t max_concurrent_calls = 64;
  /// Per attempt, connection included.
  std::int64_t call_timeout_ms = 10000;
  /// Further attempts after a 429 or 5xx.
  std::int32_t max_retries = 2;
  /// First backoff when no retry-after is given; doubles per attempt.
  std::int64_t backoff_ms = 250;
  /// A retry-after longer than this fails the call instead.
  std::int64_t max_retry_after_ms = 30000;
  std::int32_t breaker_threshold = 3;
  std::int64_t breaker_open_ms = 30000;
};

/// Returns the URL calls go to: base + "/v1/messages" (Anthropic) or
/// base + "/v1/chat/completions" (OpenAI; a base ending in "/v1" gets
/// "/chat/completions").
std::string endpoint_url(const llm_client_options& options);

/// Spawns the HTTP client of one provider.
///
/// It answers every `llm_request` with an `llm_response` to the sender:
/// the 2xx body, or E003 (unavailable, HTTP error, circuit open) / E004
/// (timeout). Each call runs with libcurl in a detached worker actor, so no
/// scheduler thread ever blocks; at most `max_concurrent_calls` run at once,
/// the rest queue in arrival order. 429 and 5xx answers are retried with
/// backoff, honouring retry-after. A circuit breaker (seed 002 §7.2) counts
/// consecutive failed calls: while it is open, requests fail at once with
/// E003 "circuit open"; after `breaker_open_ms` one trial call decides.
caf::actor spawn_llm_client(caf::actor_system& sys, llm_client_options options);

} // namespace parley::actors::http
