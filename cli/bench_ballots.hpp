#pragma once

#include <cstdint>
#include <iosfwd>

namespace parley::cli {

/// `parley bench --workload ballots`: `n` ballots with 9 voters each, the four
/// strategies mixed (ballot i uses strategy i % 4), every voter a rule agent (a pool of
/// 90, in 10 groups of 9 with mixed roles, capabilities and loads; ballot i asks group
/// i % 10). Ballots start through a bounded in-flight window
/// (docs/caf-notes.md, "Work stealing collapses under long queues"). Every outcome is
/// checked against the pure rules (actors/ballot/rules.hpp) fed with the votes the rule
/// agents cast (actors/agent/voter.hpp). Prints one line, `BALLOTS N=<n> seconds=<s>
/// ballots_per_s=<x> cpu_s=<s> process_s=<s> peak_rss_kb=<VmHWM> wrong=<k>` (or a JSON
/// object with `json`), and ends the process like `run_bench`: exit code 0, or 1 if any
/// outcome was wrong or missing. Returns (1) only when `n` is not positive.
int run_ballot_bench(std::int64_t n, bool json, std::ostream& out);

} // namespace parley::cli
