#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "config/settings.hpp"

namespace parley::runtime {

/// The load tests of DESIGN.md's Benchmarks section.
enum class bench_workload : std::uint8_t {
  /// N rooms, two scripted agents each; propose 10000 + i % 1000, counter
  /// 85 %, counter the midpoint, accept: 4 rounds, all accepted.
  w1,
  /// As W1, but the responder never answers: round timeout 1 s, total 4 s;
  /// all expire.
  w2,
};

/// How `parley bench` runs.
struct bench_options {
  bench_workload workload = bench_workload::w1;
  std::int64_t negotiations = 10000;
  /// Print the result as one JSON object instead of the summary line.
  bool json = false;
  /// Draw a progress bar on `err` (when it is a terminal).
  bool progress = false;
  /// "HOST:PORT" of `parley node`s to place the rooms (and negotiations) on;
  /// empty: everything local.
  std::vector<std::string> remotes;
};

/// Runs a workload, verifies every negotiation (status, rounds, parties,
/// amounts) and prints exactly one result line to `out`. Returns 0 when every
/// negotiation ended as the workload requires, 1 otherwise.
int run_bench(const bench_options& options, const config::settings& settings,
              std::ostream& out, std::ostream& err);

/// The process's peak resident set size (VmHWM) in KiB, or -1 if unknown.
std::int64_t peak_rss_kb();

/// The `p`-th percentile (0..100) of `xs` (sorted in place); 0 when empty.
std::int64_t percentile(std::vector<std::int64_t>& xs, double p);

} // namespace parley::runtime
