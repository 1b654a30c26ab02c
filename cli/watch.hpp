#pragma once

#include <chrono>
#include <iosfwd>
#include <memory>
#include <string>

#include "config/settings.hpp"

namespace parley::runtime {
class world;
} // namespace parley::runtime

namespace parley::cli {


/// `--serve` of `parley run` and `parley bench`: where to serve and for how
/// long after the run.
struct watch_options {
  /// Off: the run is not served.
  bool enabled = false;
  /// Address, limits and token file (the `serve` settings, `--serve`'s
  /// address applied by `with_address`).
  config::serve_settings settings;
  /// The bearer token (PARLEY_API_TOKEN), else the token file's.
  std::string token;
  /// How long the service stays up once the run has ended; a stop signal
  /// ends it sooner.
  std::chrono::seconds linger{0};
  /// The run starts once this many event streams are open (a load test of
  /// the streams, BENCHMARKS.md), at most `clients_limit` after the service
  /// listens; 0: at once.
  std::size_t clients = 0;
  std::chrono::seconds clients_limit{120};
  /// Without a store of its own, the run writes to a throwaway SQLite file
  /// (so that the API lists its negotiations), removed at the end. Off for a
  /// load test, which keeps its workload as it is.
  bool temporary_store = true;
};

/// `settings` listening on `address`: "PORT" (on settings.host) or
/// "HOST:PORT"; port 0 picks a free one. Throws std::invalid_argument naming
/// what is wrong.
config::serve_settings with_address(config::serve_settings settings,
                                    const std::string& address);

/// The HTTP service (service/api_service.hpp: the API and what runs beside it)
/// over a run's world while the run plays, so that it can be watched live.
/// Prints where it listens to `log` once it does.
class watch {
public:
  /// Adds the throwaway store when the options ask for it and `w` has none,
  /// builds the service and starts it, then waits for the options' event
  /// stream clients. Throws std::runtime_error when it cannot (an address
  /// without a token that is not loopback: E019; a port in use; the
  /// clients did not come in time).
  watch(runtime::world& w, const watch_options& options, std::ostream& log);

  /// Stops the service and removes the throwaway store.
  ~watch();

  watch(const watch&) = delete;
  watch& operator=(const watch&) = delete;

  /// Keeps serving for the options' `linger` once the run has ended, or
  /// until SIGINT or SIGTERM comes, then stops the service.
  void linger();

  /// The service and the throwaway store's folder (watch.cpp).
  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace parley::cli
