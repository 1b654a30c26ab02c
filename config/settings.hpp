#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "messages/negotiation_settings.hpp"

namespace parley::config {

/// How a room remembers what happened in it.
struct room_settings {
  /// Terminal negotiation records a room keeps, oldest dropped first (1..100000).
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

/// The audit log (seed 004): every bus event as a JSON line.
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

/// The whole typed configuration of Parley; a default-constructed value holds
/// the defaults, which `config/parley.json` repeats.
struct settings {
  messages::negotiation_settings negotiation;
  room_settings room;
  runtime_settings runtime;
  audit_settings audit;

  friend bool operator==(const settings& x, const settings& y) {
    return x.negotiation == y.negotiation && x.room == y.room &&
           x.runtime == y.runtime && x.audit == y.audit;
  }

  friend bool operator!=(const settings& x, const settings& y) { return !(x == y); }
};

/// Returns an empty string if `x` is valid, otherwise the first problem,
/// led by its dotted path (e.g. "negotiation.max_rounds must be within 1..20,
/// got 25").
std::string validate(const settings& x);

/// Writes `x` as `{"negotiation": {...}, "room": {...}, "runtime": {...}}` with
/// snake_case keys; this JSON form is also the schema of overrides and the
/// source of the environment variable names (see loader.hpp).
void to_json(nlohmann::json& j, const settings& x);

} // namespace parley::config
