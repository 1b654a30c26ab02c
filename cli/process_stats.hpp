#pragma once

#include <cstdint>
#include <string>

namespace parley::cli {

/// What the process has used so far, for benchmark result lines.
struct process_stats {
  /// Peak resident set size (VmHWM) in KiB, or -1 if unknown.
  std::int64_t peak_rss_kb = -1;
  /// User plus system CPU time of every thread, in seconds.
  double cpu_s = 0;
  /// Wall-clock seconds since the process started (10 ms resolution).
  double process_s = 0;
};

/// Reads the figures from the kernel.
process_stats read_process_stats();

/// A figure with `digits` decimals, as the result lines print it.
std::string fixed(double x, int digits);

} // namespace parley::cli
