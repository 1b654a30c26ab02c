#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

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
  std::int32_t start_window = 256;

  friend bool operator==(const runtime_settings& x, const runtime_settings& y) {
    return x.scheduler_threads == y.scheduler_threads &&
           x.start_window == y.start_window;
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
  /// A peer silent for this long is taken for dead (100..600000 ms).
  std::int32_t connection_timeout_ms = 2000;

  friend bool operator==(const cluster_settings& x, const cluster_settings& y) {
    return x.heartbeat_interval_ms == y.heartbeat_interval_ms &&
           x.connection_timeout_ms == y.connection_timeout_ms;
  }

  friend bool operator!=(const cluster_settings& x, const cluster_settings& y) {
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

  friend bool operator==(const settings& x, const settings& y) {
    return x.negotiation == y.negotiation && x.room == y.room &&
           x.runtime == y.runtime && x.cluster == y.cluster;
  }

  friend bool operator!=(const settings& x, const settings& y) { return !(x == y); }
};

/// Returns an empty string if `x` is valid, otherwise the first problem,
/// led by its dotted path (e.g. "negotiation.max_rounds must be within 1..20,
/// got 25").
std::string validate(const settings& x);

/// Writes `x` as `{"negotiation": {...}, "room": {...}, "runtime": {...},
/// "cluster": {...}}` with
/// snake_case keys; this JSON form is also the schema of overrides and the
/// source of the environment variable names (see loader.hpp).
void to_json(nlohmann::json& j, const settings& x);

} // namespace parley::config
