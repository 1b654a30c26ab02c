#include "actors/gateway/placement.hpp"

#include <utility>

#include <openssl/evp.h>

namespace parley::actors::gateway {

std::array<unsigned char, 16> rendezvous_rank(const std::string& room_id,
                                              std::int64_t incarnation) {
  auto text = room_id + ':' + std::to_string(incarnation);
  std::array<unsigned char, 16> digest{};
  unsigned int size = 0;
  // MD5 as a hash, not for security: only its spread over the members counts.
  EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_md5(), nullptr);
  return digest;
}

void placement_table::set(std::string own_address,
                          std::vector<placement_candidate> live) {
  std::lock_guard<std::mutex> guard{mtx_};
  own_ = std::move(own_address);
  live_ = std::move(live);
}

std::string placement_table::node_for(const std::string& room_id) const {
  std::lock_guard<std::mutex> guard{mtx_};
  const placement_candidate* first = nullptr;
  std::array<unsigned char, 16> best{};
  for (const auto& m : live_) {
    auto rank = rendezvous_rank(room_id, m.incarnation);
    if (first == nullptr || rank > best ||
        (rank == best && m.incarnation < first->incarnation)) {
      first = &m;
      best = rank;
    }
  }
  // By address, not incarnation: an earlier incarnation of this node at the
  // same address, not yet taken over, would open it here too.
  if (first == nullptr || first->node_address == own_)
    return {};
  return first->node_address;
}

} // namespace parley::actors::gateway
