#include "messages/error_code.hpp"

#include <catch2/catch.hpp>

namespace unit_messages_error_code_test {

using parley::messages::error_code;

TEST_CASE("error codes print as E0xx and parse back", "[unit]") {
  CHECK(to_code(error_code::invalid_request) == "E001");
  CHECK(to_code(error_code::duplicate_message) == "E011");
  CHECK(to_code(error_code::negotiation_in_progress) == "E012");
  CHECK(to_code(error_code::node_unavailable) == "E021");
  CHECK(to_code(error_code::not_eligible) == "E022");
  CHECK(to_code(error_code::invalid_ballot) == "E027");
  CHECK(to_code(error_code::store_failed) == "E028");
  for (auto i = 1; i <= static_cast<int>(error_code::internal_error); ++i) {
    auto code = static_cast<error_code>(i);
    error_code parsed = error_code::none;
    REQUIRE(from_code(to_code(code), parsed));
    CHECK(parsed == code);
    CHECK(to_string(code) != "unknown");
  }
}

TEST_CASE("malformed error codes are refused", "[unit]") {
  error_code parsed = error_code::none;
  CHECK_FALSE(from_code("E000", parsed));
  CHECK_FALSE(from_code("E999", parsed));
  CHECK_FALSE(from_code("E038", parsed));
  CHECK_FALSE(from_code("X012", parsed));
  CHECK_FALSE(from_code("E01", parsed));
  CHECK_FALSE(from_code("E0a2", parsed));
}

TEST_CASE("every code has its documented HTTP status", "[unit]") {
  CHECK(http_status(error_code::invalid_request) == 400);
  CHECK(http_status(error_code::agent_not_found) == 404);
  CHECK(http_status(error_code::llm_unavailable) == 503);
  CHECK(http_status(error_code::llm_timeout) == 504);
  CHECK(http_status(error_code::duplicate_message) == 200);
  CHECK(http_status(error_code::illegal_transition) == 500);
  CHECK(http_status(error_code::out_of_turn) == 409);
  CHECK(http_status(error_code::unauthorized) == 401);
  CHECK(http_status(error_code::request_too_large) == 413);
  for (auto i = 1; i <= static_cast<int>(error_code::internal_error); ++i) {
    auto status = http_status(static_cast<error_code>(i));
    CHECK(status >= 200);
    CHECK(status < 600);
  }
}

} // namespace unit_messages_error_code_test
