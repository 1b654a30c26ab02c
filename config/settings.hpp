#pragma once

#include <cstdint>
#include <string>
#include <tuple>

#include <nlohmann/json_fwd.hpp>

#include "messages/channel_settings.hpp"
#include "messages/negotiation_settings.hpp"

namespace parley::config {

/// How a room remembers what happened in it.
struct room_settings {
  /// Ended negotiations a room keeps, oldest dropped first (0..100000; 0 keeps
  /// none, leaving the records to the bus's subscribers).
  std::int32_t history_limit = 100;

  friend bool operator==(const room_settings& x, const room_settings& y) {
    return x.history_limit == y.history_limit;
  }

  friend bool operator!=(const room_settings& x, const room_settings& y) {
    return !(x == y);
  }
};

/// How a node runs its actors.
struct runtime_settings {
  /// Worker threads of the CAF scheduler; 0 means one per core (0..256).
  std::int32_t scheduler_threads = 0;
  /// Negotiations the scenario runner and the bench start at once (1..1000000).
  std::int32_t start_window = 64;
  /// The same when the rooms are on nodes (1..1000000): each negotiation
  /// then waits for the network at every turn, so more must be under way to
  /// keep both processes busy.
  std::int32_t remote_start_window = 1024;

  /// The start window of a run whose rooms are on nodes (`remote`) or here.
  std::int32_t start_window_for(bool remote) const noexcept {
    return remote ? remote_start_window : start_window;
  }

  friend bool operator==(const runtime_settings& x, const runtime_settings& y) {
    return x.scheduler_threads == y.scheduler_threads &&
           x.start_window == y.start_window &&
           x.remote_start_window == y.remote_start_window;
  }

  friend bool operator!=(const runtime_settings& x, const runtime_settings& y) {
    return !(x == y);
  }
};

/// How a process talks to other nodes (`parley node`, `--remote`).
struct cluster_settings {
  /// Heartbeats between connected nodes (10..60000 ms): without them a frozen
  /// node is never noticed.
  std::int32_t heartbeat_interval_ms = 500;
  /// A peer silent for this long is taken for dead, and a connection to a
  /// node not made within it fails (100..600000 ms).
  std::int32_t connection_timeout_ms = 2000;
  /// PEM file of the CA whose certificates this process accepts from peers.
  /// The three TLS paths are given all together (mutual TLS) or not at all.
  std::string tls_ca;
  /// PEM certificate (chain) this process shows its peers, signed by tls_ca.
  std::string tls_certificate;
  /// Unencrypted PEM private key of tls_certificate.
  std::string tls_key;
  /// Connections a node holds at once; more are closed on accept (1..65536).
  std::int32_t max_connections = 64;
  /// A node closes a connection whose peer has not completed the TLS
  /// handshake (without TLS: sent its first byte) by then (100..600000 ms).
  std::int32_t handshake_timeout_ms = 5000;
  /// A node closes a connection silent for this long; must exceed
  /// heartbeat_interval_ms, which keeps live peers talking (1000..3600000 ms).
  std::int32_t idle_timeout_ms = 120000;
  /// How often a node prints its status line; 0 never (0..3600000 ms).
  std::int32_t status_interval_ms = 10000;

  /// Whether the TLS paths are set (validation makes that all three).
  bool tls() const noexcept {
    return !tls_ca.empty() || !tls_certificate.empty() || !tls_key.empty();
  }

  friend bool operator==(const cluster_settings& x, const cluster_settings& y) {
    return std::tie(x.heartbeat_interval_ms, x.connection_timeout_ms, x.tls_ca,
                    x.tls_certificate, x.tls_key, x.max_connections,
                    x.handshake_timeout_ms, x.idle_timeout_ms, x.status_interval_ms) ==
           std::tie(y.heartbeat_interval_ms, y.connection_timeout_ms, y.tls_ca,
                    y.tls_certificate, y.tls_key, y.max_connections,
                    y.handshake_timeout_ms, y.idle_timeout_ms, y.status_interval_ms);
  }

  friend bool operator!=(const cluster_settings& x, const cluster_settings& y) {
    return !(x == y);
  }
};

/// How LLM agents reach their model (docs/protocols/llm-agent.md, "Settings").
/// The API key is not a setting: it comes from ANTHROPIC_API_KEY only, so that
/// it never lands in a file, a printed configuration or an event.
struct llm_settings {
  /// "anthropic" (Messages API) or "openai" (chat completions with tools).
  std::string provider = "anthropic";
  /// Also ANTHROPIC_BASE_URL.
  std::string base_url = "https://api.anthropic.com";
  /// Also LLM_MODEL.
  std::string model = "claude-sonnet-4-5-20250929";
  /// max_tokens of every request (1..100000).
  std::int32_t max_tokens = 1024;
  /// Calls in flight at once per provider; more wait in order (1..10000).
  std::int32_t max_concurrent_calls = 64;
  /// Per attempt (100..600000, 10 s by default; LLM_TIMEOUT in seconds).
  std::int64_t call_timeout_ms = 10000;
  /// Further attempts after a 429 or 5xx (0..10).
  std::int32_t max_retries = 2;
  /// Consecutive failed calls that open the breaker (1..100;
  /// LLM_FAILURE_THRESHOLD).
  std::int32_t breaker_threshold = 3;
  /// How long the breaker stays open before one trial call (100..3600000;
  /// LLM_RECOVERY_TIMEOUT in seconds).
  std::int64_t breaker_open_ms = 30000;
  /// The transcript batching window (1..600000;
  /// docs/protocols/llm-agent.md, "Transcript batching").
  std::int64_t batch_window_ms = 2000;
  /// Bad model replies in one turn before the rule brain decides (1..100).
  std::int32_t max_bad_turns = 3;

  friend bool operator==(const llm_settings& x, const llm_settings& y) {
    return std::tie(x.provider, x.base_url, x.model, x.max_tokens,
                    x.max_concurrent_calls, x.call_timeout_ms, x.max_retries,
                    x.breaker_threshold, x.breaker_open_ms, x.batch_window_ms,
                    x.max_bad_turns) == std::tie(y.provider, y.base_url, y.model,
                                                 y.max_tokens, y.max_concurrent_calls,
                                                 y.call_timeout_ms, y.max_retries,
                                                 y.breaker_threshold, y.breaker_open_ms,
                                                 y.batch_window_ms, y.max_bad_turns);
  }

  friend bool operator!=(const llm_settings& x, const llm_settings& y) {
    return !(x == y);
  }
};

/// The audit log (docs/protocols/ballots-and-auctions.md, "Events"): every bus event as
/// a JSON line.
struct audit_settings {
  /// File the audit log appends to; empty turns it off.
  std::string path;

  friend bool operator==(const audit_settings& x, const audit_settings& y) {
    return x.path == y.path;
  }

  friend bool operator!=(const audit_settings& x, const audit_settings& y) {
    return !(x == y);
  }
};

/// The negotiation store (docs/protocols/record-and-schema.md;
/// docs/configuration.md#store).
struct store_settings {
  /// Where `parley serve`, `parley db` and `parley stats` keep the records:
  /// a path or sqlite:PATH (SQLite, WAL), or postgresql://… . `--store` and
  /// PARLEY_STORE override it.
  std::string url = "./parley.db";
  /// SQLite's synchronous mode: "normal" (a commit survives the process
  /// dying) or "full" (it also survives power loss).
  std::string synchronous = "normal";
  /// How long a negotiation of `parley run` or `parley bench` keeps quiet to
  /// the store: one that ends sooner is written once, at its end; zero
  /// writes every change at once (as `parley serve` always does).
  std::int64_t settle_ms = 1000;

  friend bool operator==(const store_settings& x, const store_settings& y) {
    return x.url == y.url && x.synchronous == y.synchronous &&
           x.settle_ms == y.settle_ms;
  }

  friend bool operator!=(const store_settings& x, const store_settings& y) {
    return !(x == y);
  }
};

/// `parley serve`'s HTTP API (docs/api.md).
struct serve_settings {
  /// Address to listen on; one other than loopback needs a bearer token.
  std::string host = "127.0.0.1";
  /// Port to listen on; 0 picks a free one (printed on start) (0..65535).
  std::int32_t port = 8080;
  /// File holding the bearer token every request must carry (PARLEY_API_TOKEN
  /// gives the token itself); empty: no token.
  std::string token_file;
  /// The HTTP server's I/O threads, apart from the actor scheduler's (1..64).
  std::int32_t io_threads = 2;
  /// Largest request body accepted; larger ones get 413 (1024..16777216).
  std::int32_t max_body_bytes = 65536;
  /// How long a request may wait for the runtime before 503 (10..600000 ms).
  std::int32_t request_timeout_ms = 5000;
  /// Requests waiting for the runtime at once; more get 503 (1..1000000).
  std::int32_t max_in_flight = 4096;
  /// Connections open at once (1..1000000); serve lowers it to what its
  /// open-files limit leaves (cli/fd_limit.hpp). One more connection,
  /// kept for health checks, may ask only `/healthz` and `/readyz`.
  std::int32_t max_connections = 10000;
  /// A keep-alive connection idle this long is closed (100..3600000 ms).
  std::int32_t idle_timeout_ms = 30000;
  /// On SIGTERM/SIGINT, how long requests in flight may take to be answered
  /// (0..4000 ms: the whole stop stays within 5 s).
  std::int32_t shutdown_grace_ms = 3000;
  /// An event stream sends a `: keep-alive` comment this often
  /// (100..3600000 ms).
  std::int32_t sse_keepalive_ms = 15000;
  /// Bytes an event stream may have waiting to be written; a client that
  /// lets more pile up is cut off (65536..1073741824).
  std::int32_t sse_queue_bytes = 8388608;
  /// Events kept for streams that resume (Last-Event-ID): this many for the
  /// global stream and as many for the demands' streams (0..10000000).
  std::int32_t sse_replay_events = 10000;

  friend bool operator==(const serve_settings& x, const serve_settings& y) {
    return std::tie(x.host, x.port, x.token_file, x.io_threads, x.max_body_bytes,
                    x.request_timeout_ms, x.max_in_flight, x.max_connections,
                    x.idle_timeout_ms, x.shutdown_grace_ms, x.sse_keepalive_ms,
                    x.sse_queue_bytes, x.sse_replay_events) ==
           std::tie(y.host, y.port, y.token_file, y.io_threads, y.max_body_bytes,
                    y.request_timeout_ms, y.max_in_flight, y.max_connections,
                    y.idle_timeout_ms, y.shutdown_grace_ms, y.sse_keepalive_ms,
                    y.sse_queue_bytes, y.sse_replay_events);
  }

  friend bool operator!=(const serve_settings& x, const serve_settings& y) {
    return !(x == y);
  }
};

/// The whole typed configuration of Parley; a default-constructed value holds
/// the defaults, which `config/parley.json` repeats.
struct settings {
  messages::negotiation_settings negotiation;
  room_settings room;
  runtime_settings runtime;
  cluster_settings cluster;
  llm_settings llm;
  audit_settings audit;
  store_settings store;
  serve_settings serve;
  /// Multi-party channels (docs/protocols/channels.md, "Settings").
  messages::channel_settings channel;

  friend bool operator==(const settings& x, const settings& y) {
    return x.negotiation == y.negotiation && x.room == y.room &&
           x.runtime == y.runtime && x.cluster == y.cluster && x.llm == y.llm &&
           x.audit == y.audit && x.store == y.store && x.serve == y.serve &&
           x.channel == y.channel;
  }

  friend bool operator!=(const settings& x, const settings& y) { return !(x == y); }
};

/// Returns an empty string if `x` is valid, otherwise the first problem,
/// led by its dotted path (e.g. "negotiation.max_rounds must be within 1..20,
/// got 25").
std::string validate(const settings& x);

/// Writes `x` as `{"negotiation": {...}, "room": {...}, "runtime": {...},
/// "cluster": {...}, "llm": {...}, "audit": {...}, "store": {...}, "serve": {...},
/// "channel": {...}}`
/// with snake_case keys; this JSON
/// form is also the schema of overrides and the source of the environment variable
/// names (see loader.hpp).
void to_json(nlohmann::json& j, const settings& x);

} // namespace parley::config
