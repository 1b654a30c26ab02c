#include "config/loader.hpp"

#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "messages/json_reader.hpp"
#include "support/temp_file.hpp"

namespace unit_config_loader_test {

using nlohmann::json;
using parley::config::apply_environment;
using parley::config::apply_overrides;
using parley::config::config_error;
using parley::config::environment_variables;
using parley::config::load;
using parley::config::settings;
using parley::test::temp_file;

namespace {

const std::string defaults_file = PARLEY_SOURCE_DIR "/config/parley.json";

/// A fake environment: tests never read or change the real one.
struct fake_environment {
  std::map<std::string, std::string> variables;

  parley::config::getenv_function getenv() const {
    return [this](const char* name) -> const char* {
      auto i = variables.find(name);
      return i == variables.end() ? nullptr : i->second.c_str();
    };
  }
};

const fake_environment no_environment;

/// The message of the config_error that `f` throws.
template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const config_error& e) {
    return e.what();
  }
  FAIL("no config_error was thrown");
  return {};
}

std::string overrides_error(const std::string& overrides) {
  settings s;
  return error_of([&] { apply_overrides(s, json::parse(overrides), "test.json"); });
}

std::string environment_error(const fake_environment& env) {
  settings s;
  return error_of([&] { apply_environment(s, env.getenv()); });
}

} // namespace

TEST_CASE("the defaults file holds exactly the code defaults", "[unit]") {
  std::ifstream in{defaults_file};
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  CHECK(parley::messages::parse_json(text.str()) == json(settings{}));
  CHECK(load(defaults_file, no_environment.getenv()) == settings{});
}

TEST_CASE("without a file or variables, load returns the defaults", "[unit]") {
  CHECK(load("", no_environment.getenv()) == settings{});
}

TEST_CASE("a config file overrides the defaults it names", "[unit]") {
  temp_file file{R"({"negotiation": {"max_rounds": 8},
                     "runtime": {"start_window": 1000}})"};
  auto s = load(file.path(), no_environment.getenv());
  auto expected = settings{};
  expected.negotiation.max_rounds = 8;
  expected.runtime.start_window = 1000;
  CHECK(s == expected);
}

TEST_CASE("overrides may name a part of the incentive split", "[unit]") {
  settings s;
  apply_overrides(s, json::parse(R"({"negotiation": {"incentive_split":
                                      {"agent": 0.6, "pool": 0.2}}})"),
                  "test");
  CHECK(s.negotiation.incentive_split.agent == 0.6);
  CHECK(s.negotiation.incentive_split.broker == 0.1);
  CHECK(s.negotiation.incentive_split.validator == 0.1);
  CHECK(s.negotiation.incentive_split.pool == 0.2);
}

TEST_CASE("the environment wins over the file", "[unit]") {
  temp_file file{R"({"negotiation": {"max_rounds": 8, "round_timeout_ms": 1000}})"};
  fake_environment env;
  env.variables["PARLEY_NEGOTIATION_MAX_ROUNDS"] = "12";
  env.variables["PARLEY_RUNTIME_SCHEDULER_THREADS"] = "4";
  auto s = load(file.path(), env.getenv());
  CHECK(s.negotiation.max_rounds == 12);
  CHECK(s.negotiation.round_timeout_ms == 1000);
  CHECK(s.runtime.scheduler_threads == 4);
}

TEST_CASE("max_rounds outside 1..20 is refused", "[unit]") {
  for (auto rounds : {0, 21}) {
    auto what = overrides_error(R"({"negotiation": {"max_rounds": )" +
                                std::to_string(rounds) + "}}");
    CHECK_THAT(what, Catch::StartsWith("test.json: ") &&
                         Catch::Contains("max_rounds") && Catch::Contains("1..20"));
    fake_environment env;
    env.variables["PARLEY_NEGOTIATION_MAX_ROUNDS"] = std::to_string(rounds);
    CHECK_THAT(environment_error(env),
               Catch::Contains("PARLEY_NEGOTIATION_MAX_ROUNDS") &&
                   Catch::Contains("negotiation.max_rounds must be within 1..20, got " +
                                   std::to_string(rounds)));
  }
}

TEST_CASE("an unknown key is refused with its path", "[unit]") {
  CHECK(overrides_error(R"({"negotiation": {"max_round": 3}})") ==
        "test.json: negotiation.max_round: unknown field");
  CHECK(overrides_error(R"({"rooms": {"history_limit": 3}})") ==
        "test.json: rooms: unknown field");
  CHECK(overrides_error(R"({"negotiation": {"incentive_split": {"agents": 0.7}}})") ==
        "test.json: negotiation.incentive_split.agents: unknown field");
}

TEST_CASE("a value of the wrong type is refused with its path", "[unit]") {
  CHECK(overrides_error(R"({"room": {"history_limit": "100"}})") ==
        "test.json: room.history_limit: expected an integer, got a string");
  CHECK(overrides_error(R"({"negotiation": {"max_rounds": 5.5}})") ==
        "test.json: negotiation.max_rounds: expected an integer, got a number "
        "with a fraction");
  CHECK(overrides_error(R"({"runtime": 4})") ==
        "test.json: runtime: expected an object, got an integer");
  CHECK(overrides_error(R"({"runtime": {"start_window": null}})") ==
        "test.json: runtime.start_window: expected an integer, got null");
  CHECK(overrides_error(R"({"runtime": {"start_window": 4294967296}})") ==
        "test.json: runtime.start_window: integer out of range: 4294967296");
  CHECK(overrides_error("[1, 2]") ==
        "test.json: (document): expected an object, got an array");
}

TEST_CASE("an incentive split that does not sum to 1 is refused", "[unit]") {
  CHECK_THAT(overrides_error(R"({"negotiation": {"incentive_split": {"agent": 0.8}}})"),
             Catch::StartsWith("test.json: negotiation.incentive_split: ") &&
                 Catch::Contains("sum to 1"));
  fake_environment env;
  env.variables["PARLEY_NEGOTIATION_INCENTIVE_SPLIT_POOL"] = "0.2";
  CHECK_THAT(environment_error(env),
             Catch::StartsWith("environment (PARLEY_NEGOTIATION_INCENTIVE_SPLIT_POOL): "
                               "negotiation.incentive_split: ") &&
                 Catch::Contains("sum to 1"));
}

TEST_CASE("shares of the incentive split can be set from the environment", "[unit]") {
  fake_environment env;
  env.variables["PARLEY_NEGOTIATION_INCENTIVE_SPLIT_AGENT"] = "0.6";
  env.variables["PARLEY_NEGOTIATION_INCENTIVE_SPLIT_POOL"] = "2e-1";
  settings s;
  apply_environment(s, env.getenv());
  CHECK(s.negotiation.incentive_split.agent == 0.6);
  CHECK(s.negotiation.incentive_split.pool == 0.2);
}

TEST_CASE("a malformed environment number is refused naming the variable", "[unit]") {
  fake_environment env;
  auto& value = env.variables["PARLEY_RUNTIME_START_WINDOW"];
  for (auto text : {"12abc", "", " 12", "12 ", "1.5", "+12", "0x10"}) {
    value = text;
    auto expected = "environment variable PARLEY_RUNTIME_START_WINDOW: expected an "
                    "integer, got \"" +
                    value + "\"";
    CHECK(environment_error(env) == expected);
  }
  value = "99999999999999999999";
  CHECK(environment_error(env) ==
        "environment variable PARLEY_RUNTIME_START_WINDOW: an integer out of "
        "range: \"99999999999999999999\"");
  value = "4294967296";
  CHECK(environment_error(env) ==
        "environment variable PARLEY_RUNTIME_START_WINDOW: runtime.start_window: "
        "integer out of range: 4294967296");
  env.variables.clear();
  env.variables["PARLEY_NEGOTIATION_INCENTIVE_SPLIT_BROKER"] = "0.1x";
  CHECK(environment_error(env) ==
        "environment variable PARLEY_NEGOTIATION_INCENTIVE_SPLIT_BROKER: expected a "
        "number, got \"0.1x\"");
}

TEST_CASE("a refused source leaves the settings unchanged", "[unit]") {
  settings s;
  s.room.history_limit = 7;
  auto before = s;
  CHECK_THROWS_AS(apply_overrides(s, json::parse(R"({"room": {"history_limit": 7},
                                                     "runtime": {"start_window": 0}})"),
                                  "test"),
                  config_error);
  CHECK(s == before);
  fake_environment env;
  env.variables["PARLEY_ROOM_HISTORY_LIMIT"] = "8";
  env.variables["PARLEY_RUNTIME_START_WINDOW"] = "x";
  CHECK_THROWS_AS(apply_environment(s, env.getenv()), config_error);
  CHECK(s == before);
}

TEST_CASE("every setting has an environment variable, and each is read", "[unit]") {
  auto names = environment_variables();
  CHECK(names ==
        std::vector<std::string>{"PARLEY_AUDIT_PATH",
                                 "PARLEY_CHANNEL_ACCEPT_THRESHOLD_HIGH",
                                 "PARLEY_CHANNEL_ACCEPT_THRESHOLD_LOW",
                                 "PARLEY_CHANNEL_COORDINATOR_BRAIN",
                                 "PARLEY_CHANNEL_FALLBACK_CANDIDATES",
                                 "PARLEY_CHANNEL_FEEDBACK_TIMEOUT_MS",
                                 "PARLEY_CHANNEL_MAX_CANDIDATES",
                                 "PARLEY_CHANNEL_MAX_DEPTH",
                                 "PARLEY_CHANNEL_MAX_RECOVERY_ATTEMPTS",
                                 "PARLEY_CHANNEL_MAX_ROUNDS",
                                 "PARLEY_CHANNEL_MAX_STUCK_MS",
                                 "PARLEY_CHANNEL_MAX_SUBCHANNELS",
                                 "PARLEY_CHANNEL_MIN_CANDIDATES",
                                 "PARLEY_CHANNEL_RESPONSE_TIMEOUT_MS",
                                 "PARLEY_CHANNEL_STATE_CHECK_INTERVAL_MS",
                                 "PARLEY_CLUSTER_CONNECTION_TIMEOUT_MS",
                                 "PARLEY_CLUSTER_HANDSHAKE_TIMEOUT_MS",
                                 "PARLEY_CLUSTER_HEARTBEAT_INTERVAL_MS",
                                 "PARLEY_CLUSTER_IDLE_TIMEOUT_MS",
                                 "PARLEY_CLUSTER_MAX_CONNECTIONS",
                                 "PARLEY_CLUSTER_STATUS_INTERVAL_MS",
                                 "PARLEY_CLUSTER_TLS_CA",
                                 "PARLEY_CLUSTER_TLS_CERTIFICATE",
                                 "PARLEY_CLUSTER_TLS_KEY",
                                 "PARLEY_LLM_BASE_URL",
                                 "PARLEY_LLM_BATCH_WINDOW_MS",
                                 "PARLEY_LLM_BREAKER_OPEN_MS",
                                 "PARLEY_LLM_BREAKER_THRESHOLD",
                                 "PARLEY_LLM_CALL_TIMEOUT_MS",
                                 "PARLEY_LLM_MAX_BAD_TURNS",
                                 "PARLEY_LLM_MAX_CONCURRENT_CALLS",
                                 "PARLEY_LLM_MAX_RETRIES",
                                 "PARLEY_LLM_MAX_TOKENS",
                                 "PARLEY_LLM_MODEL",
                                 "PARLEY_LLM_PROVIDER",
                                 "PARLEY_NEGOTIATION_INCENTIVE_SPLIT_AGENT",
                                 "PARLEY_NEGOTIATION_INCENTIVE_SPLIT_BROKER",
                                 "PARLEY_NEGOTIATION_INCENTIVE_SPLIT_POOL",
                                 "PARLEY_NEGOTIATION_INCENTIVE_SPLIT_VALIDATOR",
                                 "PARLEY_NEGOTIATION_MAX_ROUNDS",
                                 "PARLEY_NEGOTIATION_ROUND_TIMEOUT_MS",
                                 "PARLEY_NEGOTIATION_TOTAL_TIMEOUT_MS",
                                 "PARLEY_ROOM_HISTORY_LIMIT",
                                 "PARLEY_RUNTIME_REMOTE_START_WINDOW",
                                 "PARLEY_RUNTIME_SCHEDULER_THREADS",
                                 "PARLEY_RUNTIME_START_WINDOW",
                                 "PARLEY_SERVE_HOST",
                                 "PARLEY_SERVE_IDLE_TIMEOUT_MS",
                                 "PARLEY_SERVE_IO_THREADS",
                                 "PARLEY_SERVE_MAX_BODY_BYTES",
                                 "PARLEY_SERVE_MAX_CONNECTIONS",
                                 "PARLEY_SERVE_MAX_IN_FLIGHT",
                                 "PARLEY_SERVE_PORT",
                                 "PARLEY_SERVE_REQUEST_TIMEOUT_MS",
                                 "PARLEY_SERVE_SHUTDOWN_GRACE_MS",
                                 "PARLEY_SERVE_SSE_KEEPALIVE_MS",
                                 "PARLEY_SERVE_SSE_QUEUE_BYTES",
                                 "PARLEY_SERVE_SSE_REPLAY_EVENTS",
                                 "PARLEY_SERVE_TOKEN_FILE",
                                 "PARLEY_STORE_SETTLE_MS",
                                 "PARLEY_STORE_SYNCHRONOUS",
                                 "PARLEY_STORE_URL"});
  for (const auto& name : names) {
    // Strings: any text is read (and then validated).
    if (name == "PARLEY_AUDIT_PATH" || name == "PARLEY_LLM_BASE_URL" ||
        name == "PARLEY_LLM_MODEL" || name == "PARLEY_LLM_PROVIDER" ||
        name == "PARLEY_SERVE_TOKEN_FILE" || name == "PARLEY_SERVE_HOST" ||
        name == "PARLEY_CHANNEL_COORDINATOR_BRAIN" ||
        name.rfind("PARLEY_CLUSTER_TLS_", 0) == 0 || name == "PARLEY_STORE_URL" ||
        name == "PARLEY_STORE_SYNCHRONOUS")
      continue;
    fake_environment env;
    env.variables[name] = "junk";
    auto what = environment_error(env);
    CHECK_THAT(what, Catch::StartsWith("environment variable " + name + ": "));
  }
}

TEST_CASE("the TLS paths come from the environment, all three or none", "[unit]") {
  fake_environment env;
  env.variables["PARLEY_CLUSTER_TLS_CA"] = "ca.pem";
  CHECK(environment_error(env) ==
        "environment (PARLEY_CLUSTER_TLS_CA): cluster.tls_ca, cluster.tls_certificate "
        "and cluster.tls_key go together (mutual TLS needs all three), got only some "
        "of them");
  env.variables["PARLEY_CLUSTER_TLS_CERTIFICATE"] = "node.pem";
  env.variables["PARLEY_CLUSTER_TLS_KEY"] = "node.key";
  settings s;
  apply_environment(s, env.getenv());
  CHECK(s.cluster.tls());
  CHECK(s.cluster.tls_certificate == "node.pem");
}

TEST_CASE("the original specifications' variable names are listed", "[unit]") {
  CHECK(parley::config::seed_environment_variables() ==
        std::vector<std::string>{"ANTHROPIC_BASE_URL", "LLM_MODEL", "LLM_TIMEOUT",
                                 "LLM_FAILURE_THRESHOLD", "LLM_RECOVERY_TIMEOUT",
                                 "TOWOW_MAX_NEGOTIATION_ROUNDS", "TOWOW_MAX_CANDIDATES",
                                 "TOWOW_ACCEPT_THRESHOLD_HIGH",
                                 "TOWOW_ACCEPT_THRESHOLD_LOW", "STATE_CHECK_INTERVAL",
                                 "MAX_STUCK_TIME", "MAX_RECOVERY_ATTEMPTS"});
}

TEST_CASE("TOWOW_ and state checker variables set the channel section", "[unit]") {
  fake_environment env;
  env.variables["TOWOW_MAX_NEGOTIATION_ROUNDS"] = "3";
  env.variables["TOWOW_MAX_CANDIDATES"] = "7";
  env.variables["TOWOW_ACCEPT_THRESHOLD_HIGH"] = "0.9";
  env.variables["TOWOW_ACCEPT_THRESHOLD_LOW"] = "0.6";
  env.variables["STATE_CHECK_INTERVAL"] = "2";
  env.variables["MAX_STUCK_TIME"] = "30";
  env.variables["MAX_RECOVERY_ATTEMPTS"] = "1";
  env.variables["PARLEY_CHANNEL_MAX_ROUNDS"] = "4";
  auto s = load({}, env.getenv());
  CHECK(s.channel.max_rounds == 4); // PARLEY_ wins over TOWOW_
  CHECK(s.channel.max_candidates == 7);
  CHECK(s.channel.accept_threshold_high == 0.9);
  CHECK(s.channel.accept_threshold_low == 0.6);
  CHECK(s.channel.state_check_interval_ms == 2000);
  CHECK(s.channel.max_stuck_ms == 30000);
  CHECK(s.channel.max_recovery_attempts == 1);
  CHECK(s.channel.response_timeout_ms == 300000);
  fake_environment crossed;
  crossed.variables["TOWOW_ACCEPT_THRESHOLD_LOW"] = "0.95";
  CHECK(
      environment_error(crossed) ==
      "environment (TOWOW_ACCEPT_THRESHOLD_LOW): channel.accept_threshold_low must be "
      "within (0, accept_threshold_high], got 0.950000");
  fake_environment word;
  word.variables["TOWOW_ACCEPT_THRESHOLD_HIGH"] = "high";
  CHECK(environment_error(word) ==
        "environment variable TOWOW_ACCEPT_THRESHOLD_HIGH: expected a number, got "
        "\"high\"");
}

TEST_CASE("the channel section is read from a file, strictly", "[unit]") {
  temp_file file{
      R"({"channel": {"max_subchannels": 2, "feedback_timeout_ms": 60000}})"};
  auto s = load(file.path(), no_environment.getenv());
  CHECK(s.channel.max_subchannels == 2);
  CHECK(s.channel.feedback_timeout_ms == 60000);
  CHECK(s.channel.max_candidates == 10);
  CHECK_THAT(overrides_error(R"({"channel": {"max_subchannel": 2}})"),
             Catch::Contains("channel.max_subchannel"));
  CHECK(overrides_error(R"({"channel": {"max_depth": 2}})") ==
        "test.json: channel.max_depth must be within 0..1, got 2");
}

TEST_CASE("the LLM_ and ANTHROPIC_ variables set the llm section", "[unit]") {
  fake_environment env;
  env.variables["ANTHROPIC_BASE_URL"] = "http://127.0.0.1:9999";
  env.variables["LLM_MODEL"] = "claude-test";
  env.variables["LLM_TIMEOUT"] = "5";
  env.variables["LLM_FAILURE_THRESHOLD"] = "4";
  env.variables["LLM_RECOVERY_TIMEOUT"] = "60";
  env.variables["PARLEY_LLM_PROVIDER"] = "openai";
  auto s = load({}, env.getenv());
  CHECK(s.llm.base_url == "http://127.0.0.1:9999");
  CHECK(s.llm.model == "claude-test");
  CHECK(s.llm.call_timeout_ms == 5000);
  CHECK(s.llm.breaker_threshold == 4);
  CHECK(s.llm.breaker_open_ms == 60000);
  CHECK(s.llm.provider == "openai");
  fake_environment bad;
  bad.variables["PARLEY_LLM_PROVIDER"] = "gemini";
  CHECK_THAT(
      environment_error(bad),
      Catch::Contains("llm.provider must be anthropic or openai, got \"gemini\""));
}

TEST_CASE("the store section is read from the file and PARLEY_STORE_*", "[unit]") {
  fake_environment env;
  env.variables["PARLEY_STORE_URL"] = "postgresql://localhost/parley";
  env.variables["PARLEY_STORE_SYNCHRONOUS"] = "full";
  env.variables["PARLEY_STORE_SETTLE_MS"] = "0";
  auto s = load({}, env.getenv());
  CHECK(s.store.url == "postgresql://localhost/parley");
  CHECK(s.store.synchronous == "full");
  CHECK(s.store.settle_ms == 0);
  CHECK(load({}, fake_environment{}.getenv()).store.settle_ms == 1000);
  fake_environment bad;
  bad.variables["PARLEY_STORE_SYNCHRONOUS"] = "sometimes";
  CHECK_THAT(environment_error(bad),
             Catch::Contains("store.synchronous must be normal or full"));
  fake_environment negative;
  negative.variables["PARLEY_STORE_SETTLE_MS"] = "-1";
  CHECK_THAT(environment_error(negative), Catch::Contains("store.settle_ms"));
}

TEST_CASE("the audit path is read from PARLEY_AUDIT_PATH as text", "[unit]") {
  fake_environment env;
  env.variables["PARLEY_AUDIT_PATH"] = "/tmp/audit.jsonl";
  settings s;
  apply_environment(s, env.getenv());
  CHECK(s.audit.path == "/tmp/audit.jsonl");
}

TEST_CASE("an unreadable or malformed file is refused naming it", "[unit]") {
  const std::string missing = "/nonexistent/parley.json";
  CHECK(error_of([&] { load(missing, no_environment.getenv()); }) ==
        missing + ": cannot open the file: No such file or directory");
  temp_file file{"{\n  \"room\": {\n    \"history_limit\": 10,\n  }\n}\n"};
  auto what = error_of([&] { load(file.path(), no_environment.getenv()); });
  CHECK_THAT(what, Catch::StartsWith(file.path() + ": line 4, column 3: invalid JSON"));
  temp_file bad_value{R"({"room": {"history_limit": -1}})"};
  CHECK(error_of([&] { load(bad_value.path(), no_environment.getenv()); }) ==
        bad_value.path() + ": room.history_limit must be within 0..100000, got -1");
}

TEST_CASE("a config file with a number beyond a double's range is refused", "[unit]") {
  // Found by config_fuzz: it used to escape as nlohmann's out_of_range.
  temp_file file{R"({"negotiation": {"total_timeout_ms": 12E800}})"};
  CHECK(error_of([&] { load(file.path(), no_environment.getenv()); }) ==
        file.path() + ": (document): invalid JSON: number overflow parsing '12E800'");
}

TEST_CASE("a config error tells its source", "[unit]") {
  try {
    settings s;
    apply_overrides(s, json::parse(R"({"x": 1})"), "scenario.json config");
    FAIL("no config_error was thrown");
  } catch (const config_error& e) {
    CHECK(e.source() == "scenario.json config");
  }
}

namespace {

/// A millisecond setting, its variable and its documented range.
struct ms_setting {
  const char* section;
  const char* key;
  std::int64_t min;
  std::int64_t max;
};

constexpr ms_setting ms_settings[] = {
    {"negotiation", "round_timeout_ms", 1, 31536000000},
    {"negotiation", "total_timeout_ms", 1, 31536000000},
    {"cluster", "heartbeat_interval_ms", 10, 60000},
    {"cluster", "connection_timeout_ms", 100, 600000},
    {"cluster", "handshake_timeout_ms", 100, 600000},
    {"cluster", "idle_timeout_ms", 1000, 3600000},
    {"cluster", "status_interval_ms", 0, 3600000},
    {"llm", "call_timeout_ms", 100, 600000},
    {"llm", "breaker_open_ms", 100, 3600000},
    {"llm", "batch_window_ms", 1, 600000},
};

std::string variable_of(const ms_setting& x) {
  std::string name = std::string{"PARLEY_"} + x.section + "_" + x.key;
  for (auto& c : name)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

} // namespace

TEST_CASE("every millisecond setting is refused outside its range, from any source",
          "[unit]") {
  for (const auto& x : ms_settings) {
    auto path = std::string{x.section} + "." + x.key;
    INFO(path);
    auto range = std::to_string(x.min) + ".." + std::to_string(x.max);
    for (auto value : {x.min - 1, x.max + 1, std::int64_t{9223372036854775807}}) {
      // int32 settings refuse a value out of their type's range on reading.
      auto reason =
          value > 2147483647 && x.section == std::string{"cluster"}
              ? path + ": integer out of range: " + std::to_string(value)
              : path + " must be within " + range + ", got " + std::to_string(value);
      CHECK(overrides_error(json{{x.section, {{x.key, value}}}}.dump()) ==
            "test.json: " + reason);
      fake_environment env;
      env.variables[variable_of(x)] = std::to_string(value);
      CHECK_THAT(environment_error(env),
                 Catch::Contains(variable_of(x)) && Catch::EndsWith(reason));
    }
    settings s;
    apply_overrides(s, json{{x.section, {{x.key, x.max}}}}, "test.json");
    apply_overrides(s, json{{x.section, {{x.key, x.min}}}}, "test.json");
  }
}

TEST_CASE("second-valued variables saturate instead of wrapping", "[unit]") {
  fake_environment env;
  env.variables["LLM_TIMEOUT"] = "9223372036854775807";
  CHECK(environment_error(env) ==
        "environment (LLM_TIMEOUT): llm.call_timeout_ms must be within 100..600000, "
        "got 9223372036854775807");
  env.variables.clear();
  env.variables["LLM_RECOVERY_TIMEOUT"] = "-9223372036854775807";
  CHECK(environment_error(env) ==
        "environment (LLM_RECOVERY_TIMEOUT): llm.breaker_open_ms must be within "
        "100..3600000, got -9223372036854775808");
}

TEST_CASE("a config file over the size cap is refused before it is read", "[unit]") {
  temp_file file{std::string(2000, ' ') + "{}"};
  CHECK(error_of([&] { load(file.path(), no_environment.getenv(), 1024); }) ==
        file.path() + ": the file is larger than the cap of 1024 bytes on input files");
  CHECK(load(file.path(), no_environment.getenv(), 4096) == settings{});
}

TEST_CASE("config strings and nesting are capped like a scenario's", "[unit]") {
  CHECK(overrides_error(json{{"llm", {{"model", std::string(70000, 'm')}}}}.dump()) ==
        "test.json: llm.model: must be at most 65536 bytes long, got 70000");
  std::string deep = std::string(10000, '[') + std::string(10000, ']');
  CHECK_THAT(overrides_error(R"({"x": )" + deep + "}"),
             Catch::StartsWith("test.json: x") &&
                 Catch::EndsWith("objects and arrays must nest at most 64 deep"));
  fake_environment env;
  env.variables["PARLEY_LLM_MODEL"] = std::string(70000, 'm');
  CHECK(environment_error(env) ==
        "environment variable PARLEY_LLM_MODEL: llm.model: must be at most 65536 "
        "bytes long, got 70000");
}

} // namespace unit_config_loader_test
