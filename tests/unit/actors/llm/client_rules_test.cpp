#include "actors/llm/client_rules.hpp"

#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

namespace unit_actors_llm_client_rules_test {

using parley::actors::llm::after_attempt;
using parley::actors::llm::retry_policy;
using parley::messages::error_code;
using parley::messages::llm_attempt;

namespace {

/// Two retries, 250 ms backoff, waits up to 30 s, 10 s per attempt.
const retry_policy policy{2, 250, 30000, 10000};

llm_attempt answered(std::int32_t status, std::string body = {},
                     caf::optional<std::int64_t> retry_after_ms = caf::none) {
  return llm_attempt{1, error_code::none, {}, status, std::move(body), retry_after_ms};
}

} // namespace

TEST_CASE("a 2xx answers the caller with the body", "[unit]") {
  auto step = after_attempt(policy, 0, answered(200, R"({"content":[]})"));
  REQUIRE(step.response);
  CHECK(step.response->code == error_code::none);
  CHECK(step.response->status == 200);
  CHECK(step.response->body == R"({"content":[]})");
  CHECK(step.response->error.empty());
}

TEST_CASE("a 429 with retry-after is retried after it", "[unit]") {
  auto step = after_attempt(policy, 0, answered(429, "slow down", 3000));
  CHECK_FALSE(step.response);
  CHECK(step.retry_in_ms == 3000);
}

TEST_CASE("a 5xx without retry-after is retried after the doubling backoff", "[unit]") {
  auto first = after_attempt(policy, 0, answered(503));
  CHECK_FALSE(first.response);
  CHECK(first.retry_in_ms == 250);
  auto second = after_attempt(policy, 1, answered(500));
  CHECK_FALSE(second.response);
  CHECK(second.retry_in_ms == 500);
}

TEST_CASE("the last allowed attempt answers with the HTTP error", "[unit]") {
  auto step = after_attempt(policy, 2, answered(500, std::string(300, 'x')));
  REQUIRE(step.response);
  CHECK(step.response->code == error_code::llm_unavailable);
  CHECK(step.response->status == 500);
  CHECK(step.response->error == "HTTP 500: " + std::string(200, 'x'));
  CHECK(step.response->body.empty());
}

TEST_CASE("a wait beyond max_retry_after_ms fails the call", "[unit]") {
  auto step = after_attempt(policy, 0, answered(429, "later", 30001));
  REQUIRE(step.response);
  CHECK(step.response->code == error_code::llm_unavailable);
  CHECK(step.response->error == "HTTP 429: later");
  CHECK(after_attempt(policy, 0, answered(429, "later", 30000)).retry_in_ms == 30000);
  retry_policy long_backoff = policy;
  long_backoff.backoff_ms = 20000;
  CHECK(after_attempt(long_backoff, 1, answered(502)).response);
}

TEST_CASE("a 4xx other than 429 is not retried", "[unit]") {
  auto step = after_attempt(policy, 0, answered(401, "bad key"));
  REQUIRE(step.response);
  CHECK(step.response->code == error_code::llm_unavailable);
  CHECK(step.response->status == 401);
  CHECK(step.response->error == "HTTP 401: bad key");
}

TEST_CASE("a timeout is not retried", "[unit]") {
  auto step = after_attempt(
      policy, 0,
      llm_attempt{1, error_code::llm_timeout, "Timeout was reached", 0, {}, {}});
  REQUIRE(step.response);
  CHECK(step.response->code == error_code::llm_timeout);
  CHECK(step.response->error == "timed out after 10000 ms");
}

TEST_CASE("a request that fails without an answer is not retried", "[unit]") {
  auto step = after_attempt(
      policy, 0,
      llm_attempt{
          1, error_code::llm_unavailable, "Couldn't connect to server", 0, {}, {}});
  REQUIRE(step.response);
  CHECK(step.response->code == error_code::llm_unavailable);
  CHECK(step.response->error == "request failed: Couldn't connect to server");
}

} // namespace unit_actors_llm_client_rules_test
