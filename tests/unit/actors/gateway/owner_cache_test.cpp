// The gateway's owner cache: which node runs a negotiation this node
// forwarded to lately (docs/cluster.md, "Any node answers").

#include <string>

#include <catch2/catch.hpp>

#include "actors/gateway/owner_cache.hpp"

namespace unit_actors_gateway_owner_cache_test {

using parley::actors::gateway::owner_cache;

TEST_CASE("the owner cache names the node it was told runs a negotiation",
          "[gateway][cluster]") {
  owner_cache owners;
  CHECK(owners.find("n1") == nullptr);
  owners.remember("n1", "127.0.0.1:4001");
  owners.remember("n2", "127.0.0.1:4002");
  REQUIRE(owners.find("n1") != nullptr);
  CHECK(*owners.find("n1") == "127.0.0.1:4001");
  owners.remember("n1", "127.0.0.1:4003"); // taken over: the newest answer wins
  CHECK(*owners.find("n1") == "127.0.0.1:4003");
  owners.forget("n1");
  CHECK(owners.find("n1") == nullptr);
  CHECK(*owners.find("n2") == "127.0.0.1:4002");
}

TEST_CASE("the owner cache forgets every negotiation of a lost node",
          "[gateway][cluster]") {
  owner_cache owners;
  owners.remember("a1", "10.0.0.1:4000");
  owners.remember("b1", "10.0.0.2:4000");
  owners.remember("a2", "10.0.0.1:4000");
  owners.forget_node("10.0.0.1:4000");
  CHECK(owners.find("a1") == nullptr);
  CHECK(owners.find("a2") == nullptr);
  REQUIRE(owners.find("b1") != nullptr);
  CHECK(owners.size() == 1);
}

TEST_CASE("the owner cache stays within its limit", "[gateway][cluster]") {
  owner_cache owners{3};
  owners.remember("n1", "x:1");
  owners.remember("n2", "x:1");
  owners.remember("n3", "x:1");
  owners.remember("n3", "x:2"); // known already: nothing dropped
  CHECK(owners.size() == 3);
  owners.remember("n4", "x:1");
  CHECK(owners.size() <= 3);
  REQUIRE(owners.find("n4") != nullptr);
  CHECK(*owners.find("n4") == "x:1");
}

} // namespace unit_actors_gateway_owner_cache_test
