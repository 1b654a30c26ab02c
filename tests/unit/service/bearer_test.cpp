#include "service/bearer.hpp"

#include <catch2/catch.hpp>

namespace unit_service_bearer_test {

using parley::service::carries_token;
using parley::service::trim_token;

TEST_CASE("a token is trimmed of the whitespace around it only", "[unit]") {
  CHECK(trim_token("  abc def\t\r\n") == "abc def");
  CHECK(trim_token("abc") == "abc");
  CHECK(trim_token(" \t\r\n\v\f").empty());
  CHECK(trim_token("").empty());
}

TEST_CASE("the Bearer scheme is matched in any case, then spaces, then the token",
          "[unit]") {
  const std::string token = "0123456789abcdef";
  CHECK(carries_token("Bearer 0123456789abcdef", token));
  CHECK(carries_token("bearer 0123456789abcdef", token));
  CHECK(carries_token("BEARER 0123456789abcdef", token));
  CHECK(carries_token("BeArEr     0123456789abcdef", token));
  CHECK_FALSE(carries_token("Bearer0123456789abcdef", token));
  CHECK_FALSE(carries_token("Bearer\t0123456789abcdef", token));
  CHECK_FALSE(carries_token("Basic 0123456789abcdef", token));
  CHECK_FALSE(carries_token("Bearers 0123456789abcdef", token));
  CHECK_FALSE(carries_token("Bearer 0123456789abcde", token));
  CHECK_FALSE(carries_token("Bearer 0123456789abcdefg", token));
  CHECK_FALSE(carries_token("Bearer 0123456789abcdeF", token));
  CHECK_FALSE(carries_token("Bearer ", token));
  CHECK_FALSE(carries_token("Bearer", token));
  CHECK_FALSE(carries_token("", token));
}

} // namespace unit_service_bearer_test
