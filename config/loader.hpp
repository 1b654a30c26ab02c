#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "config/settings.hpp"
#include "messages/input_limits.hpp"

namespace parley::config {

/// Looks up an environment variable, returning null when it is not set;
/// `std::getenv` in production, a map lookup in tests.
using getenv_function = std::function<const char*(const char*)>;

/// A configuration source could not be read or would make the settings
/// invalid. The message reads `SOURCE: LOCATION: REASON`, where the source is a
/// file path, a caller-chosen name or an environment variable, and the location
/// a JSON path (`negotiation.max_rounds`) or a line and column.
class config_error : public std::runtime_error {
public:
  config_error(std::string source, const std::string& reason);

  /// The file, section or environment variable at fault.
  const std::string& source() const noexcept { return source_; }

private:
  std::string source_;
};

/// Overlays the (partial) JSON object `overrides` onto `s` and validates the
/// result. Keys must be those of `to_json(settings)` and values of the same
/// type, and `overrides` must keep the limits of messages/input_limits.hpp; on
/// any error throws config_error naming `source` and the JSON path, and leaves
/// `s` unchanged.
void apply_overrides(settings& s, const nlohmann::json& overrides,
                     const std::string& source);

/// Overrides `s` from the environment, one variable per leaf setting (see
/// `environment_variables`), and validates the result. Integers are parsed
/// strictly, shares as decimal numbers; on any error throws config_error naming
/// the variable and leaves `s` unchanged.
void apply_environment(settings& s, const getenv_function& getenv);

/// Builds the settings of a process: the defaults, then `file` (skipped when
/// empty), then the environment, validated. Throws config_error when the file
/// cannot be read, is larger than `max_file_bytes` (refused before it is
/// read), is not JSON (with line and column) or is refused.
settings load(const std::string& file, const getenv_function& getenv,
              std::size_t max_file_bytes = messages::default_max_file_bytes);

/// The environment variable of every setting, `PARLEY_` followed by its JSON
/// path upper-cased with '.' as '_' (`PARLEY_NEGOTIATION_MAX_ROUNDS`).
std::vector<std::string> environment_variables();

/// The original specifications' variables that `apply_environment` reads too, before
/// the `PARLEY_` ones (`ANTHROPIC_BASE_URL`, `LLM_MODEL`, `LLM_TIMEOUT`, …).
std::vector<std::string> seed_environment_variables();

} // namespace parley::config
