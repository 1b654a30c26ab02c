#pragma once

#include <cstdint>
#include <optional>

#include "messages/llm.hpp"

namespace parley::actors::llm {

/// What follows an attempt: the call's answer, or another attempt after a wait.
struct next_step {
  /// The caller's answer when the call is over (its call_id left to the client).
  std::optional<messages::llm_response> response;
  /// Otherwise, how long to wait before the next attempt.
  std::int64_t retry_in_ms = 0;
};

/// The settings of llm_client_options (see there) that decide retries.
struct retry_policy {
  std::int32_t max_retries = 0;
  std::int64_t backoff_ms = 0;
  std::int64_t max_retry_after_ms = 0;
  /// Named in the timeout error.
  std::int64_t call_timeout_ms = 0;
};

/// Decides what follows attempt number `attempt_no` (0 for the first) of a
/// call: a 2xx answers with the body; a timeout is E004; a failure without an
/// answer, a 4xx other than 429, the last allowed attempt, or a wait beyond
/// `max_retry_after_ms` is E003; otherwise (429, 5xx) the call is retried after
/// the retry-after, or the backoff when there is none.
next_step after_attempt(const retry_policy& policy, std::int32_t attempt_no,
                        const messages::llm_attempt& attempt);

} // namespace parley::actors::llm
