#include "actors/store/membership.hpp"

#include <catch2/catch.hpp>

#include "actors/store/backend.hpp"

namespace unit_actors_store_membership_test {

namespace store = parley::actors::store;

TEST_CASE(
    "a member's status reads back from the table's spelling, and nothing else does",
    "[unit]") {
  for (auto x : {store::member_status::joining, store::member_status::live,
                 store::member_status::leaving, store::member_status::dead})
    CHECK(store::stored_status(store::to_string(x)) == x);
  CHECK(std::string{store::to_string(store::member_status::live)} == "live");
  CHECK_THROWS_AS(store::stored_status("alive"), store::store_error);
  CHECK_THROWS_AS(store::stored_status(""), store::store_error);
}

TEST_CASE("a lease is 1 ms to a day", "[unit]") {
  CHECK_NOTHROW(store::check_lease(1));
  CHECK_NOTHROW(store::check_lease(store::max_lease_ms));
  CHECK_THROWS_AS(store::check_lease(0), store::query_error);
  CHECK_THROWS_AS(store::check_lease(-5), store::query_error);
  CHECK_THROWS_AS(store::check_lease(store::max_lease_ms + 1), store::query_error);
}

} // namespace unit_actors_store_membership_test
