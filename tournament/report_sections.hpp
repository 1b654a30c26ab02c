#pragma once

// The sections of the report (tournament/report.cpp), each a writer of its
// part of the page in order: the header, the scores, the heatmaps
// (report_tables.cpp), the scenarios (report_scenarios.cpp) and the
// concession traces (report_traces.cpp). Internal to the report.

#include <iosfwd>
#include <vector>

#include "tournament/results.hpp"

namespace parley::tournament::report_detail {

/// Writes the title, the tournament's size, its seed and its agreement rate,
/// and links to the sections.
void write_report_header(std::ostream& out, const tournament_results& r);

/// Writes the scores table, one row per entry of `r.scores` in its order.
void write_report_scores(std::ostream& out, const tournament_results& r);

/// Writes the payoff heatmap, then the agreement heatmap: row A, column B is
/// A's mean advantage against B, and the agreement rate of their negotiations.
void write_report_heatmaps(std::ostream& out, const tournament_results& r);

/// Writes the per-scenario blocks; `by_scenario` holds each scenario's
/// negotiations, in the order of `r`.
void write_report_scenarios(
    std::ostream& out, const tournament_results& r,
    const std::vector<std::vector<const negotiation_result*>>& by_scenario);

/// Writes the concession traces, a few per scenario; `by_scenario` holds each
/// scenario's negotiations, in the order of `r`.
void write_report_traces(
    std::ostream& out, const tournament_results& r,
    const std::vector<std::vector<const negotiation_result*>>& by_scenario);

} // namespace parley::tournament::report_detail
