#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/process.hpp"

namespace integration_input_limits_test {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
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
  auto env = run_command(
      "env PARLEY_NEGOTIATION_TOTAL_TIMEOUT_MS=9223372036854775807 " +
          std::string{PARLEY_BINARY} + " run " + plain + " --simulated-time",
      quick_s);
  CHECK(env.exit_code == 2);
  CHECK(env.output ==
        "parley: configuration error: environment "
        "(PARLEY_NEGOTIATION_TOTAL_TIMEOUT_MS): negotiation.total_timeout_ms must be "
        "within 1..31536000000, got 9223372036854775807\n");
}

TEST_CASE("files over the size cap are refused before they are read", "[integration]") {
  // Valid JSON but for its size: 5 MiB of spaces before the scenario.
  auto big = write_temp_file("big.json",
                             std::string(5 << 20, ' ') + scripted_counter().dump());
  auto result = run_parley("run " + big + " --simulated-time", quick_s);
  CHECK(result.exit_code == 2);
  CHECK(result.output == "parley: bad scenario: " + big +
                             ": the file is larger than the cap of 4194304 bytes on "
                             "input files\n");
  auto raised =
      run_parley("--max-file-bytes 8388608 run " + big + " --simulated-time", quick_s);
  CHECK(raised.exit_code == 0);
  CHECK_THAT(raised.output, Contains(R"("accepted":1)"));
  auto config = write_temp_file("big_config.json", std::string(2048, ' ') + "{}");
  auto plain = write_temp_file("small.json", scripted_counter().dump());
  auto small =
      run_parley("--max-file-bytes 1024 --config " + config + " run " + plain, quick_s);
  CHECK(small.exit_code == 2);
  CHECK(small.output == "parley: configuration error: " + config +
                            ": the file is larger than the cap of 1024 bytes on input "
                            "files\n");
  auto out_of_range = run_parley("--max-file-bytes 100 demo", quick_s);
  CHECK(out_of_range.exit_code == 2);
  CHECK_THAT(out_of_range.output,
             StartsWith("--max-file-bytes: Value 100 not in range"));
}

} // namespace integration_input_limits_test
