#pragma once

#include <cstdint>

namespace parley::cli {

/// What a scenario's demands (docs/protocols/channels.md) came to, printed with the run
/// summary of a run that had demands: how many were submitted and how they
/// ended (refused: the coordinator did not take one up), their channels
/// (sub-channels included) and how those ended, and how many of the
/// scenario's expectations did not hold.
struct demand_summary {
  std::int64_t demands = 0;
  std::int64_t demands_finalized = 0;
  std::int64_t demands_force_finalized = 0;
  std::int64_t demands_failed = 0;
  std::int64_t demands_refused = 0;
  std::int64_t channels = 0;
  std::int64_t channels_finalized = 0;
  std::int64_t channels_force_finalized = 0;
  std::int64_t channels_failed = 0;
  std::int64_t expectations_failed = 0;
};

} // namespace parley::cli
