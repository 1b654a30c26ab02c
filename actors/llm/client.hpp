#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "caf/fwd.hpp"

#include "actors/llm/wire_format.hpp"
#include "actors/metrics/node_metrics.hpp"
#include "messages/handles/llm_client.hpp"

namespace parley::actors::llm {

/// One provider endpoint and how calls to it are made.
struct llm_client_options {
  llm::provider_kind provider = llm::provider_kind::anthropic;
  /// e.g. "https://api.anthropic.com" or "http://127.0.0.1:8080".
  std::string base_url = "https://api.anthropic.com";
  /// Sent as x-api-key (Anthropic) or a bearer token (OpenAI); never logged,
  /// never put in a message or an event.
  std::string api_key;
  /// Calls in progress at once over all agents (a call waiting for its retry
  /// counts); more wait in order.
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
  /// Performs the attempts instead of libcurl workers (tests in simulated
  /// time): it gets one `llm_request` per attempt and answers the sender with
  /// an `llm_attempt` of the same call_id. Unset: libcurl in detached workers.
  llm_performer_actor performer;
  /// Where the client records its calls, their latency and its breaker's
  /// state (shared by every client of a node); none: not recorded.
  std::shared_ptr<metrics::llm_metrics> metrics;
};

/// Returns the URL calls go to: base + "/v1/messages" (Anthropic) or
/// base + "/v1/chat/completions" (OpenAI; a base ending in "/v1" gets
/// "/chat/completions").
std::string endpoint_url(const llm_client_options& options);

/// Spawns the HTTP client of one provider.
///
/// It answers every `llm_request` with an `llm_response` to the sender: the 2xx body,
/// or E003 (unavailable, HTTP error, circuit open) / E004 (timeout). Each attempt runs
/// with libcurl in its own detached worker actor, so no scheduler thread ever blocks;
/// the worker reports the attempt's outcome (an `llm_attempt`) and quits, and the
/// client decides what follows (`after_attempt`, actors/llm/client_rules.hpp). 429 and
/// 5xx answers are retried: the client waits the retry-after, or else the backoff, as a
/// delayed message to itself (time is a message), then starts the next attempt. At most
/// `max_concurrent_calls` calls are in progress at once, the rest queue in arrival
/// order; a call keeps its slot while it waits for a retry, so the wait does not make
/// room for a queued call (kinder to a rate-limited provider). A circuit breaker
/// (docs/protocols/llm-agent.md, "Circuit breaker") counts consecutive failed calls
/// (after their last attempt): while it is open, requests fail at once with E003
/// "circuit open"; after `breaker_open_ms` one trial call decides.
llm_client_actor spawn_llm_client(caf::actor_system& sys, llm_client_options options);

} // namespace parley::actors::llm
