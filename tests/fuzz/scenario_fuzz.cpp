// Fuzzes the scenario file parser (`parley run`): any bytes must parse, or be
// refused with a scenario_error (and a parsed `config` with a config_error).
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/scenario.hpp"
#include "config/loader.hpp"
#include "tests/fuzz/json_mutator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto plan = parley::cli::parse_scenario(text, "fuzz.json");
    parley::config::settings settings;
    parley::config::apply_overrides(settings, plan.config, "fuzz.json: config");
  } catch (const parley::cli::scenario_error&) {
  } catch (const parley::config::config_error&) {
  }
  return 0;
}
