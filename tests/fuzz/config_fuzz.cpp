// Fuzzes the configuration file loader (`--config FILE`, a scenario's
// `config`): any bytes must be applied, or be refused with a json_error
// (syntax) or a config_error, leaving the settings unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "config/loader.hpp"
#include "messages/json_reader.hpp"
#include "tests/fuzz/json_mutator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json overrides;
  try {
    overrides = parley::messages::parse_json(text);
  } catch (const parley::messages::json_error&) {
    return 0;
  }
  parley::config::settings settings;
  try {
    parley::config::apply_overrides(settings, overrides, "fuzz.json");
  } catch (const parley::config::config_error&) {
    if (settings != parley::config::settings{})
      std::abort(); // a refused source must change nothing
  }
  return 0;
}
