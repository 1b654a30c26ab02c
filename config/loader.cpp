#include "config/loader.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "messages/json.hpp"
#include "messages/json_fields.hpp"
#include "messages/time_limits.hpp"

namespace parley::config {

using messages::json_error;
using messages::object_reader;
using nlohmann::json;

config_error::config_error(std::string source, const std::string& reason)
    : std::runtime_error(source + ": " + reason), source_(std::move(source)) {}

namespace {

/// Overlays `patch` onto `target`: objects merge key by key, any other value
/// replaces. Unknown keys and wrong types pass here and are refused by
/// `read_settings`, which sees the result.
void merge(json& target, const json& patch) {
  if (!target.is_object() || !patch.is_object()) {
    target = patch;
    return;
  }
  for (const auto& item : patch.items())
    merge(target[item.key()], item.value());
}

/// Reads the complete JSON form of the settings, strictly (every key known,
/// every value of its type) but without validating ranges: the caller validates
/// the merged whole once, so every source reports a bad value the same way.
settings read_settings(const json& j) {
  settings s;
  object_reader root{j, ""};
  object_reader negotiation{root.raw("negotiation"), root.path_of("negotiation")};
  negotiation.required("max_rounds", s.negotiation.max_rounds);
  negotiation.required("round_timeout_ms", s.negotiation.round_timeout_ms);
  negotiation.required("total_timeout_ms", s.negotiation.total_timeout_ms);
  auto& split = s.negotiation.incentive_split;
  object_reader shares{negotiation.raw("incentive_split"),
                       negotiation.path_of("incentive_split")};
  shares.required("agent", split.agent);
  shares.required("broker", split.broker);
  shares.required("validator", split.validator);
  shares.required("pool", split.pool);
  shares.done();
  negotiation.done();
  object_reader room{root.raw("room"), root.path_of("room")};
  room.required("history_limit", s.room.history_limit);
  room.done();
  object_reader runtime{root.raw("runtime"), root.path_of("runtime")};
  runtime.required("scheduler_threads", s.runtime.scheduler_threads);
  runtime.required("start_window", s.runtime.start_window);
  runtime.required("remote_start_window", s.runtime.remote_start_window);
  runtime.done();
  object_reader cluster{root.raw("cluster"), root.path_of("cluster")};
  cluster.required("heartbeat_interval_ms", s.cluster.heartbeat_interval_ms);
  cluster.required("connection_timeout_ms", s.cluster.connection_timeout_ms);
  cluster.required("tls_ca", s.cluster.tls_ca);
  cluster.required("tls_certificate", s.cluster.tls_certificate);
  cluster.required("tls_key", s.cluster.tls_key);
  cluster.required("max_connections", s.cluster.max_connections);
  cluster.required("handshake_timeout_ms", s.cluster.handshake_timeout_ms);
  cluster.required("idle_timeout_ms", s.cluster.idle_timeout_ms);
  cluster.required("status_interval_ms", s.cluster.status_interval_ms);
  cluster.done();
  object_reader llm{root.raw("llm"), root.path_of("llm")};
  llm.required("provider", s.llm.provider);
  llm.required("base_url", s.llm.base_url);
  llm.required("model", s.llm.model);
  llm.required("max_tokens", s.llm.max_tokens);
  llm.required("max_concurrent_calls", s.llm.max_concurrent_calls);
  llm.required("call_timeout_ms", s.llm.call_timeout_ms);
  llm.required("max_retries", s.llm.max_retries);
  llm.required("breaker_threshold", s.llm.breaker_threshold);
  llm.required("breaker_open_ms", s.llm.breaker_open_ms);
  llm.required("batch_window_ms", s.llm.batch_window_ms);
  llm.required("max_bad_turns", s.llm.max_bad_turns);
  llm.done();
  object_reader audit{root.raw("audit"), root.path_of("audit")};
  audit.required("path", s.audit.path);
  audit.done();
  object_reader store{root.raw("store"), root.path_of("store")};
  store.required("url", s.store.url);
  store.required("synchronous", s.store.synchronous);
  store.required("settle_ms", s.store.settle_ms);
  store.done();
  object_reader serve{root.raw("serve"), root.path_of("serve")};
  serve.required("host", s.serve.host);
  serve.required("port", s.serve.port);
  serve.required("token_file", s.serve.token_file);
  serve.required("io_threads", s.serve.io_threads);
  serve.required("max_body_bytes", s.serve.max_body_bytes);
  serve.required("request_timeout_ms", s.serve.request_timeout_ms);
  serve.required("max_in_flight", s.serve.max_in_flight);
  serve.required("max_connections", s.serve.max_connections);
  serve.required("idle_timeout_ms", s.serve.idle_timeout_ms);
  serve.required("shutdown_grace_ms", s.serve.shutdown_grace_ms);
  serve.required("sse_keepalive_ms", s.serve.sse_keepalive_ms);
  serve.required("sse_queue_bytes", s.serve.sse_queue_bytes);
  serve.required("sse_replay_events", s.serve.sse_replay_events);
  serve.done();
  messages::read_fields(root.raw("channel"), root.path_of("channel"), s.channel);
  root.done();
  return s;
}

/// Throws config_error from `source` if `s` is invalid.
void check_valid(const settings& s, const std::string& source) {
  if (auto why = validate(s); !why.empty())
    throw config_error(source, why);
}

/// Calls `f(path, leaf)` for every value of `j` that is not an object.
template <class Json, class F>
void for_each_leaf(Json& j, const std::string& path, F& f) {
  for (auto& item : j.items()) {
    auto item_path = messages::path_join(path, item.key());
    if (item.value().is_object())
      for_each_leaf(item.value(), item_path, f);
    else
      f(item_path, item.value());
  }
}

/// `negotiation.max_rounds` -> `PARLEY_NEGOTIATION_MAX_ROUNDS`.
std::string variable_name(const std::string& path) {
  std::string name = "PARLEY_";
  for (char c : path)
    name +=
        c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string variable_source(const std::string& name) {
  return "environment variable " + name;
}

/// Parses the whole of `text` as a `T`, refusing anything left over.
template <class T>
json parse_number(const std::string& name, const std::string& text, const char* kind) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range)
    throw config_error(variable_source(name),
                       kind + std::string{" out of range: \""} + text + "\"");
  if (ec != std::errc{} || end != text.data() + text.size())
    throw config_error(variable_source(name),
                       std::string{"expected "} + kind + ", got \"" + text + "\"");
  return value;
}

/// Parses the value of variable `name` as the same kind of JSON value as the
/// `current` setting.
json parse_variable(const std::string& name, const std::string& text,
                    const json& current) {
  if (current.is_number_integer())
    return parse_number<std::int64_t>(name, text, "an integer");
  if (current.is_number_float())
    return parse_number<double>(name, text, "a number");
  if (current.is_string())
    return text;
  throw std::logic_error(name + " is " + messages::json_kind(current) +
                         ", which has no environment form");
}

json read_file(const std::string& file, std::size_t max_bytes) {
  auto content = messages::read_text_file(file, max_bytes);
  if (!content.error.empty())
    throw config_error(file, content.error);
  try {
    return messages::parse_json(content.text);
  } catch (const json_error& e) {
    throw config_error(file, e.what());
  }
}

} // namespace

void apply_overrides(settings& s, const json& overrides, const std::string& source) {
  settings result;
  try {
    // First, so that nothing below copies or walks an oversized document.
    messages::check_input_limits(overrides);
    json merged = s;
    merge(merged, overrides);
    result = read_settings(merged);
  } catch (const json_error& e) {
    throw config_error(source, e.what());
  }
  check_valid(result, source);
  s = result;
}

namespace {

/// What a seed variable's text is: the setting's text, a whole number, whole
/// seconds (the setting holds milliseconds) or a decimal share.
enum class seed_kind { text, count, seconds, share };

/// The original specifications' variable names (docs/configuration.md), applied before
/// the PARLEY_ ones (which win).
struct seed_variable {
  const char* name;
  const char* section;
  const char* key;
  seed_kind kind;
};

constexpr seed_variable seed_variables[] = {
    {"ANTHROPIC_BASE_URL", "llm", "base_url", seed_kind::text},
    {"LLM_MODEL", "llm", "model", seed_kind::text},
    {"LLM_TIMEOUT", "llm", "call_timeout_ms", seed_kind::seconds},
    {"LLM_FAILURE_THRESHOLD", "llm", "breaker_threshold", seed_kind::count},
    {"LLM_RECOVERY_TIMEOUT", "llm", "breaker_open_ms", seed_kind::seconds},
    {"TOWOW_MAX_NEGOTIATION_ROUNDS", "channel", "max_rounds", seed_kind::count},
    {"TOWOW_MAX_CANDIDATES", "channel", "max_candidates", seed_kind::count},
    {"TOWOW_ACCEPT_THRESHOLD_HIGH", "channel", "accept_threshold_high",
     seed_kind::share},
    {"TOWOW_ACCEPT_THRESHOLD_LOW", "channel", "accept_threshold_low", seed_kind::share},
    {"STATE_CHECK_INTERVAL", "channel", "state_check_interval_ms", seed_kind::seconds},
    {"MAX_STUCK_TIME", "channel", "max_stuck_ms", seed_kind::seconds},
    {"MAX_RECOVERY_ATTEMPTS", "channel", "max_recovery_attempts", seed_kind::count},
};

/// The setting a seed variable's `text` stands for.
json seed_value(const seed_variable& v, const char* text) {
  switch (v.kind) {
  case seed_kind::text:
    return std::string{text};
  case seed_kind::share:
    return parse_number<double>(v.name, text, "a number");
  case seed_kind::count:
  case seed_kind::seconds:
    break;
  }
  auto value = parse_number<std::int64_t>(v.name, text, "an integer");
  // Saturates, so that validation refuses a huge value rather than a wrapped
  // one.
  return v.kind == seed_kind::seconds
             ? messages::saturating_mul(value.get<std::int64_t>(), 1000)
             : value.get<std::int64_t>();
}

} // namespace

void apply_environment(settings& s, const getenv_function& getenv) {
  json merged = s;
  std::string used; // the variables that were set, "PARLEY_A, PARLEY_B"
  for (const auto& v : seed_variables) {
    if (const char* text = getenv(v.name)) {
      merged[v.section][v.key] = seed_value(v, text);
      used += (used.empty() ? "" : ", ") + std::string{v.name};
    }
  }
  auto apply = [&](const std::string& path, json& leaf) {
    auto name = variable_name(path);
    if (const char* text = getenv(name.c_str())) {
      leaf = parse_variable(name, text, leaf);
      used += (used.empty() ? "" : ", ") + name;
    }
  };
  for_each_leaf(merged, "", apply);
  settings result;
  try {
    messages::check_input_limits(merged);
    result = read_settings(merged);
  } catch (const json_error& e) {
    // Only a value out of its type's range or a string over the text cap gets
    // here; its path names the variable.
    throw config_error(variable_source(variable_name(e.path())), e.what());
  }
  check_valid(result, used.empty() ? "environment" : "environment (" + used + ")");
  s = result;
}

settings load(const std::string& file, const getenv_function& getenv,
              std::size_t max_file_bytes) {
  settings s;
  if (!file.empty())
    apply_overrides(s, read_file(file, max_file_bytes), file);
  apply_environment(s, getenv);
  return s;
}

std::vector<std::string> environment_variables() {
  std::vector<std::string> names;
  const json defaults = settings{};
  auto add = [&](const std::string& path, const json&) {
    names.push_back(variable_name(path));
  };
  for_each_leaf(defaults, "", add);
  return names;
}

std::vector<std::string> seed_environment_variables() {
  std::vector<std::string> names;
  for (const auto& v : seed_variables)
    names.emplace_back(v.name);
  return names;
}

} // namespace parley::config
