#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "config/settings.hpp"

namespace parley::cli {

/// The store `parley serve` commits to.
struct serve_store {
  /// --store, PARLEY_STORE or store.url.
  std::string url;
  /// --create-store: a store that is not there (actors/store/presence.hpp)
  /// is created; otherwise serve refuses to start on one (E028, exit 1).
  bool create = false;
};

/// The cluster `parley serve --cluster` joins (docs/cluster.md,
/// "Membership"); none when `name` is empty.
struct serve_cluster {
  std::string name;
  /// --node-id; empty: the API's host:port.
  std::string node_id;
  /// --lease-ms; a heartbeat renews it every lease/4.
  std::int64_t lease_ms = 2000;
  /// --node-port: where the node publishes its move relay for the other
  /// nodes (docs/cluster.md, "Any node answers"); 0: any free port; -1:
  /// none (moves for negotiations run elsewhere are answered E030).
  std::int32_t node_port = -1;
  /// --node-host: the address of the node port (loopback unless TLS).
  std::string node_host = "127.0.0.1";
  /// --placement local: a negotiation opened through this node runs here;
  /// spread (the default): on the live node that ranks first for its room
  /// (docs/cluster.md, "Placement").
  bool spread = true;
};

/// Runs `parley serve`: the world of `parley run` (runtime/world.hpp) with the
/// store `store` (migrated if needed; E028 and exit 1 when it cannot be
/// opened, or is missing or empty and not to be created), plus the HTTP API
/// (service/, docs/api.md) at `settings.serve`'s address: a move is
/// answered 2xx once committed. A non-loopback address needs a bearer token
/// (`api_token`, else the file `settings.serve.token_file`); without one it
/// refuses to start (E019, exit 2), as does a token shorter than 16
/// characters once trimmed. Raises the soft open-files limit to the hard one
/// and takes at most `serve.max_connections` connections, fewer when the
/// limit leaves less (cli/fd_limit.hpp). Prints `parley serve listening
/// on HOST:PORT` with that cap once ready, serves until SIGTERM or SIGINT,
/// then stops accepting, lets the requests in flight be answered (within
/// `serve.shutdown_grace_ms`), stops the actors and returns 0. With
/// `cluster.name`, joins that cluster once listening (a PostgreSQL store
/// only: E028 and exit 2 otherwise), heartbeats, stops with exit 1 when its
/// lease is lost, and leaves when it stops. With `cluster.node_port`, also
/// opens that CAF node port (mutual TLS with `settings.cluster`'s files;
/// without them only on loopback, else E019 and exit 2) and forwards moves
/// for negotiations other nodes run to them. Returns the process exit code.
int run_serve(const config::settings& settings, const std::string& api_token,
              const serve_store& store, const serve_cluster& cluster, std::ostream& out,
              std::ostream& err);

} // namespace parley::cli
