#pragma once

#include <cstdint>
#include <string>

namespace parley::actors {

// A cluster node's address as the members' table holds it: `host:port` of
// its node port (docs/cluster.md, "Membership").

/// The port of `address`; 0 when it has none (or one out of range).
std::uint16_t port_of(const std::string& address);

/// The host of `address` (all of it when it has no port).
std::string host_of(const std::string& address);

} // namespace parley::actors
