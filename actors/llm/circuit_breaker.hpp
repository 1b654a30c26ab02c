#pragma once

#include <cstdint>

namespace parley::actors::llm {

/// The circuit breaker (docs/protocols/llm-agent.md, "Circuit breaker") for one
/// provider, in milliseconds of the caller's clock: `threshold` consecutive failures
/// open it for `open_ms`; then one trial call is let through (half open): its success
/// closes the breaker, its failure opens it again for another `open_ms`.
class circuit_breaker {
public:
  enum class state { closed, open, half_open };

  explicit circuit_breaker(std::int32_t threshold = 3, std::int64_t open_ms = 30000)
      : threshold_(threshold < 1 ? 1 : threshold), open_ms_(open_ms) {}

  /// Returns whether a call may start at `now_ms`; in the half-open state only
  /// the first caller gets the trial.
  bool allow(std::int64_t now_ms);

  /// Records the outcome of a call that `allow` let through.
  void on_success();
  void on_failure(std::int64_t now_ms);

  state current() const noexcept { return state_; }
  std::int32_t failures() const noexcept { return failures_; }

private:
  std::int32_t threshold_;
  std::int64_t open_ms_;
  state state_ = state::closed;
  std::int32_t failures_ = 0;
  std::int64_t opened_at_ms_ = 0;
  bool trial_in_flight_ = false;
};

} // namespace parley::actors::llm
