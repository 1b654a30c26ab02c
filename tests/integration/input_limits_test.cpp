#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/process.hpp"

using nlohmann::json;
using parley::test::run_command;
using parley::test::run_parley;
using parley::test::write_temp_file;

namespace {

/// Issue 11's reproductions start from this example with one field changed.
json scripted_counter() {
  std::ifstream in{PARLEY_SOURCE_DIR "/examples/scenarios/scripted_counter.json"};
  return json::parse(in);
}

/// Bounds every run: a refused input exits at once, a wrapped time used to
/// make `run` loop for ever.
constexpr int quick_s = 20;

} // namespace

TEST_CASE("a step due at 9223372036855 ms is refused at once, in both time modes",
          "[integration]") {
  auto doc = scripted_counter();
  doc["negotiations"][0]["at_ms"] = 9223372036855;
  auto path = write_temp_file("at_ms_overflow.json", doc.dump());
  for (auto mode : {" --simulated-time", ""}) {
    INFO(mode);
    auto result = run_parley("run " + path + mode, quick_s);
    CHECK(result.exit_code == 2);
    CHECK(result.output == "parley: bad scenario: " + path +
                               ": negotiations[0].at_ms: must be within "
                               "0..31536000000, got 9223372036855\n");
  }
}

TEST_CASE("timeouts beyond a year are refused from the scenario and the environment",
          "[integration]") {
  auto doc = scripted_counter();
  doc["config"] = {{"negotiation", {{"round_timeout_ms", 9223372036854775807}}}};
  auto path = write_temp_file("round_timeout_overflow.json", doc.dump());
  auto result = run_parley("run " + path + " --simulated-time", quick_s);
  CHECK(result.exit_code == 2);
  CHECK(result.output == "parley: configuration error: " + path +
                             ": config: negotiation.round_timeout_ms must be within "
                             "1..31536000000, got 9223372036854775807\n");
  auto plain = write_temp_file("plain.json", scripted_counter().dump());
  auto env = run_command("env PARLEY_NEGOTIATION_TOTAL_TIMEOUT_MS=9223372036854775807 " +
                             std::string{PARLEY_BINARY} + " run " + plain +
                             " --simulated-time",
                         quick_s);
  CHECK(env.exit_code == 2);
  CHECK(env.output ==
        "parley: configuration error: environment "
        "(PARLEY_NEGOTIATION_TOTAL_TIMEOUT_MS): negotiation.total_timeout_ms must be "
        "within 1..31536000000, got 9223372036854775807\n");
}
