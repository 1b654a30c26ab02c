#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/event_printer.hpp"
#include "cli/scenario.hpp"
#include "cli/watch.hpp"
#include "config/settings.hpp"
#include "messages/events.hpp"

namespace parley::cli {

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
  /// Also write every negotiation's record to this store (a path,
  /// sqlite:PATH or postgresql://…); the run returns once the store has
  /// committed them all. Empty: no store.
  std::string store;
  /// `--serve`: the HTTP API, streams and dashboard over the run while it
  /// plays (real time only), and for `linger` after its summary.
  watch_options watch;
};

/// The run ended, but some of the scenario's demand expectations did not
/// hold; `what()` counts them and names each (the output has them too, as
/// E020 lines before the summary).
class expectation_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Plays `plan` with `settings` (the scenario's `config` section already
/// applied) and writes its events to `out`, the summary last. Returns when
/// every step has run and nothing the run started is still open: every start
/// answered, every negotiation, ballot and auction ended, every injection's
/// outcome published, every LLM agent idle, every demand answered and all
/// its channels (sub-channels included) ended, as both the bus and the
/// coordinator say. Real and simulated time take the same path: the
/// channels' own timeouts and state checker bound a demand in real time.
/// Throws std::runtime_error when the world cannot be built (a node
/// unreachable, an audit log unwritable) or, in simulated time, when nothing
/// can happen any more yet something is open; expectation_error once the
/// run is over when a demand did not end as its `expect` says.
messages::run_summary run_scenario(const scenario& plan,
                                   const config::settings& settings,
                                   const run_options& options, std::ostream& out);

} // namespace parley::cli
