#include <catch2/catch.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/scoped_actor.hpp"

#include "messages/type_ids.hpp"
#include "support/node_process.hpp"

namespace integration_node_memory_test {

using namespace std::chrono_literals;
using parley::test::background_process;
using parley::test::node_process;

namespace {

/// What a node reports of itself: rooms alive and actors running.
using node_count = std::pair<std::size_t, std::size_t>;

node_count count_on(caf::scoped_actor& self,
                    const parley::cluster::room_host_actor& host) {
  node_count result;
  self->request(host, 5s, parley::messages::count_atom::value)
      .receive(
          [&](std::size_t rooms, std::size_t running) {
            result = {rooms, running};
          },
          [&](caf::error& err) { FAIL(self->system().render(err)); });
  return result;
}

} // namespace

TEST_CASE("a node keeps no actor of a remote bench once it ended", "[integration]") {
  node_process node;
  parley::test::network_system client;
  auto host = node.connect(client.sys);
  caf::scoped_actor self{client.sys};
  auto baseline = count_on(self, host);
  CHECK(baseline.first == 0);
  for (int run = 0; run < 2; ++run) {
    background_process bench{
        {PARLEY_BINARY, "bench", "-n", "2000", "--remote", node.address}};
    REQUIRE(bench.wait_exit(60s) == 0);
    CHECK(bench.output().find("accepted=2000") != std::string::npos);
    // The bench stopped its rooms as it ended; their stops reach the node
    // shortly after, each a message: poll, bounded.
    auto deadline = std::chrono::steady_clock::now() + 10s;
    auto now = count_on(self, host);
    while (now != baseline && std::chrono::steady_clock::now() < deadline)
      now = count_on(self, host);
    CHECK(now == baseline);
  }
}

} // namespace integration_node_memory_test
