#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/io/middleman.hpp"

#include "cluster/room_host.hpp"
#include "runtime/node.hpp"
#include "support/process.hpp"

namespace parley::test {

/// An actor system that can reach nodes, configured as the parley binary's.
struct network_system {
  caf::actor_system_config cfg;
  caf::actor_system sys{prepared(cfg)};

  static caf::actor_system_config& prepared(caf::actor_system_config& cfg) {
    runtime::system_options options;
    options.network = true;
    runtime::configure(cfg, options);
    return cfg;
  }
};

/// A `parley node` (the binary the tests are built with) on a free loopback
/// port.
struct node_process {
  background_process process{{PARLEY_BINARY, "node", "--port", "0"}};
  std::string address;

  node_process() {
    using namespace std::chrono_literals;
    REQUIRE(process.wait_for_output("listening on ", 10s));
    auto out = process.output();
    auto begin = out.find("listening on ") + 13;
    address = out.substr(begin, out.find(' ', begin) - begin);
  }

  /// The room host the node publishes, reached from `sys`.
  cluster::room_host_actor connect(caf::actor_system& sys) const {
    auto colon = address.rfind(':');
    auto host = sys.middleman().remote_actor<cluster::room_host_actor>(
        address.substr(0, colon),
        static_cast<std::uint16_t>(std::stoi(address.substr(colon + 1))));
    REQUIRE(host);
    return *host;
  }
};

} // namespace parley::test
