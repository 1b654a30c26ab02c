#include "actors/store/seed_state.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_store_seed_state_test {

using parley::actors::store::seed_state;
using parley::actors::store::seed_state_of;
using parley::actors::store::status_of;
using parley::messages::negotiation_status;

TEST_CASE("round 1 is initiated, the responder's first counter proposed, later "
          "rounds counter_proposed",
          "[unit]") {
  CHECK(seed_state_of(negotiation_status::proposed, 1) == seed_state::initiated);
  CHECK(seed_state_of(negotiation_status::countering, 2) == seed_state::proposed);
  CHECK(seed_state_of(negotiation_status::countering, 3) == seed_state::counter_proposed);
  CHECK(seed_state_of(negotiation_status::countering, 9) == seed_state::counter_proposed);
}

TEST_CASE("the terminal statuses keep their names whatever the round", "[unit]") {
  for (std::size_t rounds : {1u, 2u, 4u}) {
    CHECK(seed_state_of(negotiation_status::accepted, rounds) == seed_state::accepted);
    CHECK(seed_state_of(negotiation_status::rejected, rounds) == seed_state::rejected);
    CHECK(seed_state_of(negotiation_status::expired, rounds) == seed_state::expired);
  }
}

TEST_CASE("a stored state maps back to the runtime's status", "[unit]") {
  CHECK(status_of(seed_state::initiated) == negotiation_status::proposed);
  CHECK(status_of(seed_state::proposed) == negotiation_status::countering);
  CHECK(status_of(seed_state::counter_proposed) == negotiation_status::countering);
  CHECK(status_of(seed_state::accepted) == negotiation_status::accepted);
  CHECK(status_of(seed_state::rejected) == negotiation_status::rejected);
  CHECK(status_of(seed_state::expired) == negotiation_status::expired);
}

TEST_CASE("the stored state names round-trip", "[unit]") {
  for (auto name : {"initiated", "proposed", "counter_proposed", "accepted", "rejected",
                    "expired"}) {
    seed_state x;
    REQUIRE(from_string(name, x));
    CHECK(to_string(x) == name);
  }
  seed_state x;
  CHECK_FALSE(from_string("countering", x));
}

} // namespace unit_actors_store_seed_state_test
