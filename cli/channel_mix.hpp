#pragma once

// The channels workload's shape, shared by `parley bench --workload channels`
// (cli/bench_channels.cpp) and its bare-CAF floor (tools/channel_floor), so
// that both play the same mix: which members a channel asks and from which
// round each accepts (cli/bench_channels.hpp tells the whole story). Plain
// C++: the floor links CAF only.

#include <cstddef>
#include <cstdint>

namespace parley::cli::channel_mix {

/// Members in the pool the channels draw from.
constexpr std::size_t pool_size = 1000;
/// Members each channel asks.
constexpr std::size_t members_per_channel = 10;
/// Channel i asks the members from (pool_stride * i) mod pool_size on.
constexpr std::size_t pool_stride = 7;

/// The first member channel `i` asks; it asks members_per_channel in a row
/// from there (mod pool_size).
constexpr std::size_t first_member(std::size_t i) { return (i * pool_stride) % pool_size; }

/// The round from which member j accepts: 60 % of any ten consecutive members
/// from round 1, 70 % from round 2, 90 % from round 3.
constexpr std::int32_t accept_from_round(std::size_t j) {
  switch (j % 10) {
  case 6:
    return 2;
  case 7:
  case 8:
    return 3;
  case 9:
    return 5;
  default:
    return 1;
  }
}

} // namespace parley::cli::channel_mix
