#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "tournament/results.hpp"
#include "tournament/spec.hpp"

namespace parley::tournament {

/// How a tournament runs.
struct run_options {
  /// Worker threads (at least 1); the results do not depend on it.
  std::size_t jobs = 1;
  std::uint64_t seed = 1;
  /// Called on the calling thread about five times a second, and once at the
  /// end, with the negotiations finished and their total.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

/// Returns the number of negotiations `spec` plays: strategies² × scenarios ×
/// repetitions × 2 (each side opening once).
std::size_t negotiation_count(const tournament_spec& spec);

/// Plays every negotiation of `spec` (docs/tournament.md, "Order") and
/// scores it; fills everything but `scores` (tables.hpp computes them).
/// Deterministic for a spec and seed, whatever `jobs`.
tournament_results run_tournament(const tournament_spec& spec,
                                  const run_options& options);

} // namespace parley::tournament
