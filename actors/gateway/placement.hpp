#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace parley::actors::gateway {

/// A live member of the cluster that can run negotiations: its incarnation
/// and its node port's address (docs/cluster.md, "Membership").
struct placement_candidate {
  std::int64_t incarnation = 0;
  std::string node_address;
};

/// Where a negotiation opened in a pair's own room runs in a cluster
/// (docs/cluster.md, "Placement"): on the live member that ranks first for
/// the room by rendezvous hashing. Set from the membership's thread with
/// the live members after its join and each heartbeat (as it read them from
/// the store, by the database's clock); the gateway asks for each opening,
/// from memory. Thread-safe.
class placement_table {
public:
  /// Replaces the live members; `own_address` is this node's node address.
  void set(std::string own_address, std::vector<placement_candidate> live);

  /// The node address of the member that ranks first for `room_id`; empty
  /// when that is this node's address, or before the first `set`.
  std::string node_for(const std::string& room_id) const;

private:
  mutable std::mutex mtx_;
  std::string own_;
  std::vector<placement_candidate> live_;
};

/// The rank of the member of incarnation `incarnation` for room `room_id`:
/// the MD5 digest of `room_id:incarnation`, the highest first (ties: the
/// lower incarnation first). Stable across nodes and releases: every node
/// must place a room alike.
std::array<unsigned char, 16> rendezvous_rank(const std::string& room_id,
                                              std::int64_t incarnation);

} // namespace parley::actors::gateway
