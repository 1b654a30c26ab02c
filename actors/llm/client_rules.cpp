#include "actors/llm/client_rules.hpp"

#include <string>
#include <utility>

namespace parley::actors::llm {

namespace {

next_step failed(const messages::llm_attempt& attempt, messages::error_code code,
                 std::string error) {
  return {messages::llm_response{0, attempt.status, {}, code, std::move(error)}, 0};
}

next_step success(const messages::llm_attempt& attempt) {
  return {messages::llm_response{
              0, attempt.status, attempt.body, messages::error_code::none, {}},
          0};
}

bool is_success(std::int32_t status) {
  return status >= 200 && status < 300;
}

bool is_retryable(std::int32_t status) {
  return status == 429 || status >= 500;
}

/// backoff_ms doubled per earlier retry; the doubling stops once the wait is
/// too long (which fails the call anyway), so it cannot overflow.
std::int64_t backoff(const retry_policy& policy, std::int32_t attempt_no) {
  auto wait = policy.backoff_ms;
  for (std::int32_t i = 0; i < attempt_no && wait <= policy.max_retry_after_ms; ++i)
    wait *= 2;
  return wait;
}

} // namespace

next_step after_attempt(const retry_policy& policy, std::int32_t attempt_no,
                        const messages::llm_attempt& attempt) {
  using messages::error_code;
  if (attempt.code == error_code::llm_timeout)
    return failed(attempt, error_code::llm_timeout,
                  "timed out after " + std::to_string(policy.call_timeout_ms) + " ms");
  if (attempt.code != error_code::none)
    return failed(attempt, error_code::llm_unavailable,
                  "request failed: " + attempt.error);
  if (is_success(attempt.status))
    return success(attempt);
  auto failure = failed(attempt, error_code::llm_unavailable,
                        "HTTP " + std::to_string(attempt.status) + ": " +
                            attempt.body.substr(0, 200));
  if (!is_retryable(attempt.status) || attempt_no >= policy.max_retries)
    return failure;
  auto wait =
      attempt.retry_after_ms ? *attempt.retry_after_ms : backoff(policy, attempt_no);
  if (wait > policy.max_retry_after_ms)
    return failure;
  return {std::nullopt, wait};
}

} // namespace parley::actors::llm
