#include "config/settings.hpp"

#include "messages/json.hpp"
#include "messages/time_limits.hpp"

namespace parley::config {

namespace {

/// Returns why `value` at `path` is outside `min..max`, or an empty string.
std::string check_range(const char* path, std::int64_t value, std::int64_t min,
                        std::int64_t max) {
  auto why = messages::check_range(value, min, max);
  return why.empty() ? why : std::string{path} + " " + why;
}

std::string validate_llm(const llm_settings& x) {
  if (x.provider != "anthropic" && x.provider != "openai")
    return "llm.provider must be anthropic or openai, got \"" + x.provider + "\"";
  if (x.base_url.rfind("http://", 0) != 0 && x.base_url.rfind("https://", 0) != 0)
    return "llm.base_url must start with http:// or https://, got \"" + x.base_url +
           "\"";
  if (x.model.empty())
    return "llm.model must not be empty";
  for (auto why :
       {check_range("llm.max_tokens", x.max_tokens, 1, 100000),
        check_range("llm.max_concurrent_calls", x.max_concurrent_calls, 1, 10000),
        check_range("llm.call_timeout_ms", x.call_timeout_ms, 100, 600000),
        check_range("llm.max_retries", x.max_retries, 0, 10),
        check_range("llm.breaker_threshold", x.breaker_threshold, 1, 100),
        check_range("llm.breaker_open_ms", x.breaker_open_ms, 100, 3600000),
        check_range("llm.batch_window_ms", x.batch_window_ms, 1, 600000),
        check_range("llm.max_bad_turns", x.max_bad_turns, 1, 100)})
    if (!why.empty())
      return why;
  return {};
}

std::string validate_cluster(const cluster_settings& x) {
  for (auto why :
       {check_range("cluster.heartbeat_interval_ms", x.heartbeat_interval_ms, 10,
                    60000),
        check_range("cluster.connection_timeout_ms", x.connection_timeout_ms, 100,
                    600000),
        check_range("cluster.max_connections", x.max_connections, 1, 65536),
        check_range("cluster.handshake_timeout_ms", x.handshake_timeout_ms, 100,
                    600000),
        check_range("cluster.idle_timeout_ms", x.idle_timeout_ms, 1000, 3600000),
        check_range("cluster.status_interval_ms", x.status_interval_ms, 0, 3600000)})
    if (!why.empty())
      return why;
  if (x.idle_timeout_ms <= x.heartbeat_interval_ms)
    return "cluster.idle_timeout_ms (" + std::to_string(x.idle_timeout_ms) +
           ") must exceed cluster.heartbeat_interval_ms (" +
           std::to_string(x.heartbeat_interval_ms) +
           "), or a node closes its live peers";
  if (x.tls() && (x.tls_ca.empty() || x.tls_certificate.empty() || x.tls_key.empty()))
    return "cluster.tls_ca, cluster.tls_certificate and cluster.tls_key go together "
           "(mutual TLS needs all three), got only some of them";
  return {};
}

std::string validate_serve(const serve_settings& x) {
  if (x.host.empty())
    return "serve.host must not be empty";
  for (auto why :
       {check_range("serve.port", x.port, 0, 65535),
        check_range("serve.io_threads", x.io_threads, 1, 64),
        check_range("serve.max_body_bytes", x.max_body_bytes, 1024, 16777216),
        check_range("serve.request_timeout_ms", x.request_timeout_ms, 10, 600000),
        check_range("serve.max_in_flight", x.max_in_flight, 1, 1000000),
        check_range("serve.max_connections", x.max_connections, 1, 1000000),
        check_range("serve.idle_timeout_ms", x.idle_timeout_ms, 100, 3600000),
        check_range("serve.shutdown_grace_ms", x.shutdown_grace_ms, 0, 4000),
        check_range("serve.sse_keepalive_ms", x.sse_keepalive_ms, 100, 3600000),
        check_range("serve.sse_queue_bytes", x.sse_queue_bytes, 65536, 1073741824),
        check_range("serve.sse_replay_events", x.sse_replay_events, 0, 10000000)})
    if (!why.empty())
      return why;
  return {};
}

} // namespace

std::string validate(const settings& x) {
  // The timeouts' ranges first: messages::validate only knows they are positive.
  if (auto why = check_range("negotiation.round_timeout_ms",
                             x.negotiation.round_timeout_ms, 1, messages::max_delay_ms);
      !why.empty())
    return why;
  if (auto why = check_range("negotiation.total_timeout_ms",
                             x.negotiation.total_timeout_ms, 1, messages::max_delay_ms);
      !why.empty())
    return why;
  if (auto why = messages::validate(x.negotiation); !why.empty())
    return "negotiation." + why;
  if (auto why = check_range("room.history_limit", x.room.history_limit, 0, 100000);
      !why.empty())
    return why;
  if (auto why =
          check_range("runtime.scheduler_threads", x.runtime.scheduler_threads, 0, 256);
      !why.empty())
    return why;
  if (auto why =
          check_range("runtime.start_window", x.runtime.start_window, 1, 1000000);
      !why.empty())
    return why;
  if (auto why = check_range("runtime.remote_start_window", x.runtime.remote_start_window,
                             1, 1000000);
      !why.empty())
    return why;
  if (auto why = validate_cluster(x.cluster); !why.empty())
    return why;
  if (x.store.url.empty())
    return "store.url must not be empty";
  if (x.store.synchronous != "normal" && x.store.synchronous != "full")
    return "store.synchronous must be normal or full, got \"" + x.store.synchronous +
           "\"";
  if (auto why = check_range("store.settle_ms", x.store.settle_ms, 0, 3600000);
      !why.empty())
    return why;
  if (auto why = validate_serve(x.serve); !why.empty())
    return why;
  if (auto why = messages::validate(x.channel); !why.empty())
    return "channel." + why;
  return validate_llm(x.llm);
}

void to_json(nlohmann::json& j, const settings& x) {
  j = nlohmann::json{{"negotiation", x.negotiation},
                     {"room", {{"history_limit", x.room.history_limit}}},
                     {"runtime",
                      {{"scheduler_threads", x.runtime.scheduler_threads},
                       {"start_window", x.runtime.start_window},
                       {"remote_start_window", x.runtime.remote_start_window}}},
                     {"cluster",
                      {{"heartbeat_interval_ms", x.cluster.heartbeat_interval_ms},
                       {"connection_timeout_ms", x.cluster.connection_timeout_ms},
                       {"tls_ca", x.cluster.tls_ca},
                       {"tls_certificate", x.cluster.tls_certificate},
                       {"tls_key", x.cluster.tls_key},
                       {"max_connections", x.cluster.max_connections},
                       {"handshake_timeout_ms", x.cluster.handshake_timeout_ms},
                       {"idle_timeout_ms", x.cluster.idle_timeout_ms},
                       {"status_interval_ms", x.cluster.status_interval_ms}}},
                     {"llm",
                      {{"provider", x.llm.provider},
                       {"base_url", x.llm.base_url},
                       {"model", x.llm.model},
                       {"max_tokens", x.llm.max_tokens},
                       {"max_concurrent_calls", x.llm.max_concurrent_calls},
                       {"call_timeout_ms", x.llm.call_timeout_ms},
                       {"max_retries", x.llm.max_retries},
                       {"breaker_threshold", x.llm.breaker_threshold},
                       {"breaker_open_ms", x.llm.breaker_open_ms},
                       {"batch_window_ms", x.llm.batch_window_ms},
                       {"max_bad_turns", x.llm.max_bad_turns}}},
                     {"audit", {{"path", x.audit.path}}},
                     {"store",
                      {{"url", x.store.url},
                       {"synchronous", x.store.synchronous},
                       {"settle_ms", x.store.settle_ms}}},
                     {"serve",
                      {{"host", x.serve.host},
                       {"port", x.serve.port},
                       {"token_file", x.serve.token_file},
                       {"io_threads", x.serve.io_threads},
                       {"max_body_bytes", x.serve.max_body_bytes},
                       {"request_timeout_ms", x.serve.request_timeout_ms},
                       {"max_in_flight", x.serve.max_in_flight},
                       {"max_connections", x.serve.max_connections},
                       {"idle_timeout_ms", x.serve.idle_timeout_ms},
                       {"shutdown_grace_ms", x.serve.shutdown_grace_ms},
                       {"sse_keepalive_ms", x.serve.sse_keepalive_ms},
                       {"sse_queue_bytes", x.serve.sse_queue_bytes},
                       {"sse_replay_events", x.serve.sse_replay_events}}},
                     {"channel", x.channel}};
}

} // namespace parley::config
