#include "config/settings.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace unit_config_settings_test {

using parley::config::settings;
using parley::config::validate;

TEST_CASE("default settings are valid", "[unit]") {
  CHECK(validate(settings{}).empty());
}

TEST_CASE("settings validation names the dotted path and the range", "[unit]") {
  settings s;
  SECTION("negotiation") {
    s.negotiation.max_rounds = 25;
    CHECK(validate(s) == "negotiation.max_rounds must be within 1..20, got 25");
  }
  SECTION("negotiation timeouts: 1 ms to one year") {
    s.negotiation.round_timeout_ms = 0;
    CHECK(validate(s) ==
          "negotiation.round_timeout_ms must be within 1..31536000000, got 0");
    s.negotiation.round_timeout_ms = 31536000000;
    CHECK(validate(s).empty());
    s.negotiation.total_timeout_ms = 9223372036854775807;
    CHECK(validate(s) == "negotiation.total_timeout_ms must be within 1..31536000000, "
                         "got 9223372036854775807");
  }
  SECTION("incentive split") {
    s.negotiation.incentive_split.agent = 0.8;
    CHECK_THAT(validate(s), Catch::StartsWith("negotiation.incentive_split: ") &&
                                Catch::Contains("sum to 1"));
  }
  SECTION("room") {
    s.room.history_limit = -1;
    CHECK(validate(s) == "room.history_limit must be within 0..100000, got -1");
    s.room.history_limit = 100001;
    CHECK(validate(s) == "room.history_limit must be within 0..100000, got 100001");
  }
  SECTION("runtime") {
    s.runtime.scheduler_threads = 257;
    CHECK(validate(s) == "runtime.scheduler_threads must be within 0..256, got 257");
    s.runtime.scheduler_threads = -1;
    CHECK(validate(s) == "runtime.scheduler_threads must be within 0..256, got -1");
    s.runtime.scheduler_threads = 256;
    s.runtime.start_window = 0;
    CHECK(validate(s) == "runtime.start_window must be within 1..1000000, got 0");
  }
  SECTION("cluster") {
    s.cluster.heartbeat_interval_ms = 5;
    CHECK(validate(s) ==
          "cluster.heartbeat_interval_ms must be within 10..60000, got 5");
    s.cluster.heartbeat_interval_ms = 500;
    s.cluster.connection_timeout_ms = 50;
    CHECK(validate(s) ==
          "cluster.connection_timeout_ms must be within 100..600000, got 50");
    s.cluster.connection_timeout_ms = 2000;
    s.cluster.max_connections = 0;
    CHECK(validate(s) == "cluster.max_connections must be within 1..65536, got 0");
    s.cluster.max_connections = 64;
    s.cluster.idle_timeout_ms = 1000;
    s.cluster.heartbeat_interval_ms = 1000;
    CHECK(validate(s) == "cluster.idle_timeout_ms (1000) must exceed "
                         "cluster.heartbeat_interval_ms (1000), or a node closes "
                         "its live peers");
    s.cluster.heartbeat_interval_ms = 500;
    s.cluster.tls_ca = "ca.pem";
    s.cluster.tls_key = "node.key";
    CHECK(validate(s) ==
          "cluster.tls_ca, cluster.tls_certificate and cluster.tls_key go together "
          "(mutual TLS needs all three), got only some of them");
    s.cluster.tls_certificate = "node.pem";
    CHECK(validate(s).empty());
  }
  SECTION("serve connections") {
    s.serve.max_connections = 0;
    CHECK(validate(s) == "serve.max_connections must be within 1..1000000, got 0");
    s.serve.max_connections = 1000001;
    CHECK(validate(s) ==
          "serve.max_connections must be within 1..1000000, got 1000001");
    s.serve.max_connections = 1;
    CHECK(validate(s).empty());
  }
}

TEST_CASE("settings are written as snake_case JSON, one object per part", "[unit]") {
  settings s;
  s.negotiation.max_rounds = 7;
  s.room.history_limit = 42;
  s.runtime.scheduler_threads = 3;
  s.runtime.start_window = 9;
  s.cluster.heartbeat_interval_ms = 250;
  nlohmann::json j = s;
  CHECK(j == nlohmann::json::parse(R"({
    "negotiation": {"max_rounds": 7, "round_timeout_ms": 30000,
                    "total_timeout_ms": 120000,
                    "incentive_split": {"agent": 0.7, "broker": 0.1,
                                        "validator": 0.1, "pool": 0.1}},
    "room": {"history_limit": 42},
    "runtime": {"scheduler_threads": 3, "start_window": 9, "remote_start_window": 1024},
    "cluster": {"heartbeat_interval_ms": 250, "connection_timeout_ms": 2000,
                "tls_ca": "", "tls_certificate": "", "tls_key": "",
                "max_connections": 64, "handshake_timeout_ms": 5000,
                "idle_timeout_ms": 120000, "status_interval_ms": 10000},
    "llm": {"provider": "anthropic", "base_url": "https://api.anthropic.com",
            "model": "claude-sonnet-4-5-20250929", "max_tokens": 1024,
            "max_concurrent_calls": 64, "call_timeout_ms": 10000, "max_retries": 2,
            "breaker_threshold": 3, "breaker_open_ms": 30000,
            "batch_window_ms": 2000, "max_bad_turns": 3},
    "audit": {"path": ""},
    "store": {"url": "./parley.db", "synchronous": "normal", "settle_ms": 1000},
    "serve": {"host": "127.0.0.1", "port": 8080, "token_file": "", "io_threads": 2,
              "max_body_bytes": 65536, "request_timeout_ms": 5000,
              "max_in_flight": 4096, "max_connections": 10000,
              "idle_timeout_ms": 30000,
              "shutdown_grace_ms": 3000, "sse_keepalive_ms": 15000,
              "sse_queue_bytes": 8388608, "sse_replay_events": 10000},
    "channel": {"max_candidates": 10, "min_candidates": 1, "fallback_candidates": 3,
                "max_rounds": 5, "accept_threshold_high": 0.8,
                "accept_threshold_low": 0.5, "max_depth": 1, "max_subchannels": 3,
                "response_timeout_ms": 300000, "feedback_timeout_ms": 120000,
                "state_check_interval_ms": 5000, "max_stuck_ms": 120000,
                "max_recovery_attempts": 3, "coordinator_brain": "rule"}})"));
}

TEST_CASE("settings compare by every field", "[unit]") {
  settings a;
  settings b;
  CHECK(a == b);
  b.runtime.start_window = 1;
  CHECK(a != b);
  b = a;
  b.room.history_limit = 1;
  CHECK(a != b);
  b = a;
  b.negotiation.incentive_split.pool = 0.2;
  CHECK(a != b);
  b = a;
  b.cluster.tls_key = "node.key";
  CHECK(a != b);
}

} // namespace unit_config_settings_test
