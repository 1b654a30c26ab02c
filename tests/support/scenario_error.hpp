#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "cli/scenario.hpp"

namespace parley::test {

/// Parses `text` as the scenario file `source` and returns the message of the
/// scenario_error it throws; fails the test if it parses.
inline std::string scenario_error_of(const std::string& text,
                                     const std::string& source) {
  try {
    cli::parse_scenario(text, source);
  } catch (const cli::scenario_error& e) {
    return e.what();
  }
  FAIL("scenario parsed, but an error was expected");
  return {};
}

} // namespace parley::test
