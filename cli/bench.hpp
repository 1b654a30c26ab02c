#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/watch.hpp"
#include "config/settings.hpp"

namespace parley::cli {

/// The load tests (docs/design.md, "The command line", load tests).
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
  /// Print the result as one JSON object instead of the result line.
  bool json = false;
  /// Draw a progress bar on `err` (when it is a terminal).
  bool progress = false;
  /// "HOST:PORT" of `parley node`s to place the rooms (and negotiations) on;
  /// empty: everything local.
  std::vector<std::string> remotes;
  /// Also write every negotiation's record to this store (a path,
  /// sqlite:PATH or postgresql://…); the clock then stops once the store
  /// committed the last one. Empty: no store.
  std::string store;
  /// `--serve`: the HTTP API, streams and dashboard over the load test (no
  /// throwaway store: the workload stays as it is), and for `linger` after
  /// the result line.
  watch_options watch;
};

/// Runs a workload, verifies every negotiation (status, rounds, parties,
/// amounts), prints exactly one result line to `out` and ends the process:
/// exit code 0 when every negotiation ended as the workload requires, 1
/// otherwise. The line has the measured seconds (from before the first room
/// is built to the last verified end), the rate, the process's own CPU time
/// and CPU per negotiation, its wall time since it started (`process_s`) and
/// its peak memory.
///
/// The process ends right after the line (`std::_Exit`): tearing down three
/// actors per negotiation one by one takes longer than the work measured,
/// and the kernel takes the memory back at once. Rooms placed on nodes are
/// stopped there first.
[[noreturn]] void run_bench(const bench_options& options,
                            const config::settings& settings, std::ostream& out,
                            std::ostream& err);

/// The `p`-th percentile (0..100) of `xs` (reordered); 0 when empty.
std::int64_t percentile(std::vector<std::int64_t>& xs, double p);

} // namespace parley::cli
