// The bookkeeping of requests forwarded to other nodes' relays
// (actors/common/relay_links.hpp): a request is answered once, either by its
// relay or, when its connection is lost, by what it left to do then; and the
// E030 of a node that cannot be reached names that node.

#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "actors/common/relay_links.hpp"
#include "messages/error_code.hpp"
#include "messages/type_ids.hpp"

namespace unit_actors_common_relay_links_test {

using parley::actors::port_of;
using parley::actors::relay_links;
using parley::actors::relay_unreachable;

TEST_CASE("a forwarded request is taken once, by its answer or by its lost connection",
          "[unit]") {
  relay_links links;
  std::vector<std::string> lost;
  std::vector<std::string> nodes;
  links.on_lose([&](const std::string& address) { nodes.push_back(address); });
  auto first = links.wait("10.0.0.1:4242", [&](const std::string& why) {
    lost.push_back("first: " + why);
  });
  auto second = links.wait("10.0.0.1:4242", [&](const std::string& why) {
    lost.push_back("second: " + why);
  });
  auto elsewhere = links.wait("10.0.0.2:4242", [&](const std::string& why) {
    lost.push_back("elsewhere: " + why);
  });
  CHECK(first != second);
  // The first is answered: its connection's loss no longer concerns it.
  CHECK(links.take("10.0.0.1:4242", first));
  CHECK_FALSE(links.take("10.0.0.1:4242", first));
  CHECK_FALSE(links.take("10.0.0.2:4242", second)); // another node's list
  links.lose("10.0.0.1:4242", "its node was lost");
  CHECK(lost == std::vector<std::string>{"second: its node was lost"});
  CHECK(nodes == std::vector<std::string>{"10.0.0.1:4242"});
  // Handed on once: an answer that comes after the loss is dropped.
  CHECK_FALSE(links.take("10.0.0.1:4242", second));
  links.lose("10.0.0.1:4242", "again");
  CHECK(lost.size() == 1);
  CHECK(nodes.size() == 1);
  CHECK(links.take("10.0.0.2:4242", elsewhere));
  CHECK_FALSE(links.relay_at("10.0.0.1:4242"));
}

TEST_CASE("a relay address is host:port with a port in 1..65535", "[unit]") {
  CHECK(port_of("127.0.0.1:4242") == 4242);
  CHECK(port_of("[::1]:7001") == 7001);
  CHECK(port_of("node-a:65535") == 65535);
  CHECK(port_of("node-a") == 0);
  CHECK(port_of("node-a:0") == 0);
  CHECK(port_of("node-a:65536") == 0);
  CHECK(port_of("node-a:x") == 0);
}

TEST_CASE("a node that cannot be reached is E030 naming it and the request", "[unit]") {
  auto err = relay_unreachable("channel c-1 runs", {{"channel_id", "c-1"}},
                               "10.0.0.1:4242", "connection refused");
  REQUIRE(parley::messages::is_parley_error(err));
  CHECK(err.code() ==
        static_cast<std::uint8_t>(parley::messages::error_code::overloaded));
  const auto& ctx = err.context();
  REQUIRE(ctx.size() == 2);
  CHECK(ctx.get_as<std::string>(0) ==
        "channel c-1 runs on the node at 10.0.0.1:4242, which cannot be reached "
        "(connection refused); retry");
  auto details = nlohmann::json::parse(ctx.get_as<std::string>(1));
  CHECK(details["channel_id"] == "c-1");
  CHECK(details["owner"] == "10.0.0.1:4242");
}

} // namespace unit_actors_common_relay_links_test
