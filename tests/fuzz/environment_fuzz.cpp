// Fuzzes the environment variables the configuration reads (`PARLEY_*` and
// the original specifications' names): any values must be applied, or be refused with a
// config_error, leaving the settings unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "config/loader.hpp"

namespace {

/// Every variable the loader reads.
const std::vector<std::string>& variable_names() {
  static const auto names = [] {
    auto all = parley::config::environment_variables();
    for (auto& name : parley::config::seed_environment_variables())
      all.push_back(std::move(name));
    return all;
  }();
  return names;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input{data, size};
  std::map<std::string, std::string> variables;
  const auto& names = variable_names();
  while (input.remaining_bytes() > 0) {
    const auto& name =
        names[input.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)];
    variables[name] = input.ConsumeRandomLengthString(64);
  }
  auto getenv = [&](const char* name) -> const char* {
    auto i = variables.find(name);
    return i == variables.end() ? nullptr : i->second.c_str();
  };
  parley::config::settings settings;
  try {
    parley::config::apply_environment(settings, getenv);
  } catch (const parley::config::config_error&) {
    if (settings != parley::config::settings{})
      std::abort(); // a refused source must change nothing
  }
  return 0;
}
