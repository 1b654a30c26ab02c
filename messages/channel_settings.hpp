#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"

#include "messages/fields.hpp"

namespace parley::messages {

/// The numbers that govern a multi-party channel
/// (docs/protocols/channels.md, "Settings"): candidates, rounds, thresholds,
/// sub-channels and timeouts (the original specification's seconds in milliseconds
/// here). The LLM call timeout and circuit breaker are `llm_settings`'
/// (docs/protocols/llm-agent.md, "Circuit breaker"). Each field names the original
/// specification's constant (and environment variable, where it has one).
struct channel_settings {
  /// MAX_CANDIDATES (TOWOW_MAX_CANDIDATES).
  std::int32_t max_candidates = 10;
  /// MIN_CANDIDATES.
  std::int32_t min_candidates = 1;
  /// FALLBACK_CANDIDATE_COUNT: active agents taken when selection finds none.
  std::int32_t fallback_candidates = 3;
  /// MAX_NEGOTIATION_ROUNDS (TOWOW_MAX_NEGOTIATION_ROUNDS), which is also
  /// FORCE_FINALIZE_AT_ROUND: the evaluation forces at the last round
  /// (docs/protocols/channels.md, "Forced finalize").
  std::int32_t max_rounds = 5;
  /// ACCEPT_THRESHOLD_HIGH (TOWOW_ACCEPT_THRESHOLD_HIGH): at or above, finalize.
  double accept_threshold_high = 0.8;
  /// ACCEPT_THRESHOLD_LOW (TOWOW_ACCEPT_THRESHOLD_LOW): below, fail.
  double accept_threshold_low = 0.5;
  /// MAX_RECURSION_DEPTH: levels of sub-channels below a top channel.
  std::int32_t max_depth = 1;
  /// MAX_SUBNETS_PER_CHANNEL.
  std::int32_t max_subchannels = 3;
  /// RESPONSE_COLLECTION_TIMEOUT: 300 s.
  std::int64_t response_timeout_ms = 300000;
  /// FEEDBACK_COLLECTION_TIMEOUT: 120 s.
  std::int64_t feedback_timeout_ms = 120000;
  /// STATE_CHECK_INTERVAL: 5 s.
  std::int64_t state_check_interval_ms = 5000;
  /// MAX_STUCK_TIME: 120 s in one state triggers recovery.
  std::int64_t max_stuck_ms = 120000;
  /// MAX_RECOVERY_ATTEMPTS: then the channel fails.
  std::int32_t max_recovery_attempts = 3;
  /// Who understands a demand and picks its candidates: "rule" (the
  /// coordinator's rules) or "llm" (prompts 1 and 2 through the world's LLM
  /// client, falling back on the rules: docs/protocols/channels.md, "Understanding",
  /// docs/protocols/channels.md, "Candidate selection").
  std::string coordinator_brain = "rule";

  friend bool operator==(const channel_settings& x, const channel_settings& y) {
    return x.max_candidates == y.max_candidates &&
           x.min_candidates == y.min_candidates &&
           x.fallback_candidates == y.fallback_candidates &&
           x.max_rounds == y.max_rounds &&
           x.accept_threshold_high == y.accept_threshold_high &&
           x.accept_threshold_low == y.accept_threshold_low &&
           x.max_depth == y.max_depth && x.max_subchannels == y.max_subchannels &&
           x.response_timeout_ms == y.response_timeout_ms &&
           x.feedback_timeout_ms == y.feedback_timeout_ms &&
           x.state_check_interval_ms == y.state_check_interval_ms &&
           x.max_stuck_ms == y.max_stuck_ms &&
           x.max_recovery_attempts == y.max_recovery_attempts &&
           x.coordinator_brain == y.coordinator_brain;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_settings& x) {
  return f(caf::meta::type_name("channel_settings"),
           optional_field("max_candidates", x.max_candidates),
           optional_field("min_candidates", x.min_candidates),
           optional_field("fallback_candidates", x.fallback_candidates),
           optional_field("max_rounds", x.max_rounds),
           optional_field("accept_threshold_high", x.accept_threshold_high),
           optional_field("accept_threshold_low", x.accept_threshold_low),
           optional_field("max_depth", x.max_depth),
           optional_field("max_subchannels", x.max_subchannels),
           optional_field("response_timeout_ms", x.response_timeout_ms),
           optional_field("feedback_timeout_ms", x.feedback_timeout_ms),
           optional_field("state_check_interval_ms", x.state_check_interval_ms),
           optional_field("max_stuck_ms", x.max_stuck_ms),
           optional_field("max_recovery_attempts", x.max_recovery_attempts),
           optional_field("coordinator_brain", x.coordinator_brain));
}

/// Returns an empty string if `x` is valid, otherwise the first reason why not,
/// naming the field (e.g. "max_rounds must be within 1..20, got 25").
/// Candidates 1..100 with min <= max; thresholds 0 < low <= high <= 1; depth
/// 0..1 and sub-channels 0..3 (at most one level, three a channel:
/// docs/protocols/channels.md, "Gaps and sub-channels");
/// durations 1..max_delay_ms; recovery attempts 0..100; coordinator_brain
/// "rule" or "llm".
std::string validate(const channel_settings& x);

} // namespace parley::messages
