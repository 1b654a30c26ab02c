#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/scoped_actor.hpp"

#include "cluster/bridge/forwarder.hpp"
#include "messages/type_ids.hpp"
#include "support/node_process.hpp"
#include "support/process.hpp"

namespace integration_bridge_test {

using namespace std::chrono_literals;
using parley::test::background_process;
using parley::test::node_process;

namespace {

const std::string parley_binary = PARLEY_BINARY;
const std::string examples = std::string{PARLEY_SOURCE_DIR} + "/examples/scenarios/";

/// A run's event lines without what differs between two runs of the same
/// scenario (times, generated ids), sorted (events of different rooms may
/// interleave differently).
std::vector<std::string> comparable_lines(const std::string& output) {
  static const std::regex times{
      R"x("(at|at_ms|at_us|t_ms|timestamp|created_at|updated_at|expires_at|round_trip_us)":[0-9]+)x"};
  static const std::regex uuids{
      R"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"};
  static const std::regex other_ids{R"x("(ballot_id|auction_id)":"[^"]*")x"};
  std::vector<std::string> lines;
  std::istringstream in{output};
  for (std::string line; std::getline(in, line);) {
    line = std::regex_replace(line, times, "\"$1\":T");
    line = std::regex_replace(line, uuids, "UUID");
    line = std::regex_replace(line, other_ids, "\"$1\":ID");
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

} // namespace

TEST_CASE("every example scenario prints the same events through a node as here",
          "[integration]") {
  node_process node;
  for (const auto& entry : std::filesystem::directory_iterator{examples}) {
    auto path = entry.path().string();
    INFO(path);
    background_process here{{parley_binary, "run", path}};
    background_process there{{parley_binary, "run", path, "--remote", node.address}};
    REQUIRE(here.wait_exit(30s) == 0);
    REQUIRE(there.wait_exit(30s) == 0);
    CHECK(comparable_lines(there.output()) == comparable_lines(here.output()));
  }
}

TEST_CASE("a forwarder answers a request with an error at once", "[integration]") {
  parley::test::network_system net;
  caf::scoped_actor self{net.sys};
  auto bridge = caf::actor_cast<caf::actor>(self);
  auto room = caf::actor_cast<caf::actor>(parley::cluster::bridge::make_forwarder(
      net.sys, bridge, parley::messages::route_kind::room, 0));
  caf::error failure;
  self->request(room, 5s, parley::messages::history_atom::value)
      .receive([](const caf::message&) {}, [&](caf::error& err) { failure = err; });
  INFO(net.sys.render(failure));
  CHECK(failure == caf::sec::unexpected_message);
}

} // namespace integration_bridge_test
