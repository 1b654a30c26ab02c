#pragma once

// The tournament's report: one self-contained HTML page (inline CSS and SVG,
// no script, nothing fetched). The standard library and outcomes/ only.

#include <iosfwd>

#include "tournament/results.hpp"

namespace parley::tournament {

/// Writes the tournament's report, one self-contained HTML page
/// (docs/tournament.md, "The report"). The page aggregates rather than drawing
/// each negotiation, so it stays small (under 2 MB for 200,000 negotiations),
/// and the same results always give the same bytes. Out-of-range indices in
/// `r` are skipped, and empty parts show "–" or a note instead of a plot.
void write_report(const tournament_results& r, std::ostream& out);

} // namespace parley::tournament
