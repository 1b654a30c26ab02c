#include "actors/common/node_address.hpp"

#include <cstdlib>

namespace parley::actors {

std::uint16_t port_of(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos)
    return 0;
  auto port = std::atoi(address.c_str() + colon + 1);
  return port <= 0 || port > 65535 ? 0 : static_cast<std::uint16_t>(port);
}

std::string host_of(const std::string& address) {
  return address.substr(0, address.rfind(':'));
}

} // namespace parley::actors
