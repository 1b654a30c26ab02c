#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "messages/events.hpp"
#include "runtime/scenario.hpp"

namespace parley::runtime {

/// How `parley run` and `parley demo` print events.
enum class output_format : std::uint8_t {
  json_lines, ///< one JSON event per line, then the summary line
  timeline,   ///< a human-readable timeline, then a summary sentence
};

/// How a scenario is played.
struct run_options {
  /// Virtual time on one thread: deterministic, timeouts cost nothing.
  bool simulated_time = false;
  /// Seeds the rooms' id generators; with simulated time the same seed gives
  /// the same output byte for byte.
  std::uint64_t seed = 1;
  output_format format = output_format::json_lines;
  /// "HOST:PORT" of `parley node`s to place the rooms on; empty: all local.
  std::vector<std::string> remotes;
};

/// Plays `plan` with `settings` (the scenario's `config` section already
/// applied) and writes its events to `out`, the summary last. Returns when
/// every scheduled start and injection has happened and every negotiation
/// started has ended.
messages::run_summary run_scenario(const scenario& plan,
                                   const config::settings& settings,
                                   const run_options& options, std::ostream& out);

} // namespace parley::runtime
