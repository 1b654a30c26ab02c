// Where a cluster's node places a pair's negotiation (docs/cluster.md,
// "Placement"): rendezvous hashing over the live members, from memory.

#include <string>

#include <catch2/catch.hpp>

#include "actors/gateway/placement.hpp"

namespace unit_actors_gateway_placement_test {

using parley::actors::gateway::placement_table;
using parley::actors::gateway::rendezvous_rank;

std::string hex(const std::array<unsigned char, 16>& digest) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (auto b : digest) {
    out += digits[b >> 4];
    out += digits[b & 0xf];
  }
  return out;
}

TEST_CASE("a member's rank for a room is the MD5 of room:incarnation",
          "[gateway][cluster]") {
  // What PostgreSQL's md5('room-1' || ':' || 1) answers (and Python's hashlib).
  CHECK(hex(rendezvous_rank("room-1", 1)) == "f271d3c28b246bca50e61f591bcafd32");
}

TEST_CASE("a room is placed on the live member that ranks first for it",
          "[gateway][cluster]") {
  placement_table table;
  CHECK(table.node_for("room-1").empty()); // before the membership's first read
  // Ranks (the digests' first bytes): room-1: 3 fa2b.., 1 f271.., 2 3e50..;
  // room-2: 2 fe09.., 1 441a.., 3 3d7f..; room-3: 1 d2dd.., 2 be04.., 3 5c8e...
  table.set("n1:1", {{1, "n1:1"}, {2, "n2:2"}, {3, "n3:3"}});
  CHECK(table.node_for("room-1") == "n3:3");
  CHECK(table.node_for("room-2") == "n2:2");
  CHECK(table.node_for("room-3").empty()); // this node (incarnation 1) wins
  // Incarnation 3 died: only its rooms move, to the next in rank.
  table.set("n1:1", {{1, "n1:1"}, {2, "n2:2"}});
  CHECK(table.node_for("room-1").empty());
  CHECK(table.node_for("room-2") == "n2:2");
  // Seen from node 2, room-3 goes to node 1.
  table.set("n2:2", {{1, "n1:1"}, {2, "n2:2"}});
  CHECK(table.node_for("room-3") == "n1:1");
  CHECK(table.node_for("room-2").empty());
}

} // namespace unit_actors_gateway_placement_test
