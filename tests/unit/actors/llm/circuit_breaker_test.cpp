#include "actors/llm/circuit_breaker.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_llm_circuit_breaker_test {

using parley::actors::llm::circuit_breaker;
using state = circuit_breaker::state;

TEST_CASE("the breaker opens after three consecutive failures", "[unit]") {
  circuit_breaker b{3, 30000};
  for (int i = 0; i < 2; ++i) {
    REQUIRE(b.allow(0));
    b.on_failure(0);
  }
  CHECK(b.current() == state::closed);
  REQUIRE(b.allow(0));
  b.on_success(); // a success resets the count
  for (int i = 0; i < 3; ++i) {
    REQUIRE(b.allow(100));
    b.on_failure(100);
  }
  CHECK(b.current() == state::open);
  CHECK_FALSE(b.allow(100));
  CHECK_FALSE(b.allow(30099));
}

TEST_CASE("after the open period one trial decides", "[unit]") {
  circuit_breaker b{3, 30000};
  for (int i = 0; i < 3; ++i) {
    b.allow(0);
    b.on_failure(0);
  }
  REQUIRE(b.allow(30000)); // the trial
  CHECK(b.current() == state::half_open);
  CHECK_FALSE(b.allow(30001)); // only one
  SECTION("a successful trial closes it") {
    b.on_success();
    CHECK(b.current() == state::closed);
    CHECK(b.allow(30002));
  }
  SECTION("a failed trial opens it for another period") {
    b.on_failure(30005);
    CHECK(b.current() == state::open);
    CHECK_FALSE(b.allow(60004));
    CHECK(b.allow(60005));
  }
}

} // namespace unit_actors_llm_circuit_breaker_test
