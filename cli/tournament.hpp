#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace parley::cli {

/// What `parley tournament` was asked (docs/tournament.md).
struct tournament_options {
  std::string spec_file;
  std::string out_dir;
  std::size_t jobs = 1;
  std::uint64_t seed = 1;
  /// A progress bar on `err` while it runs.
  bool progress = false;
  /// The result as one JSON object instead of a line.
  bool json = false;
};

/// Runs the tournament, writes negotiations.csv, scores.csv, scenarios.csv
/// and report.html into the output folder (made if missing), and prints one
/// result line on `out`. Returns an exit code (cli/exit_codes.hpp): a spec
/// that cannot be read, or an output folder that cannot be written, is a
/// usage error named on `err`.
int tournament_command(const tournament_options& options, std::size_t max_file_bytes,
                       std::ostream& out, std::ostream& err);

} // namespace parley::cli
