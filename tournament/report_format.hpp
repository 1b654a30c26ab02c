#pragma once

// The report's text helpers (tournament/report.cpp): numbers, counts, names
// and HTML escaping as the page shows them. Internal to the report.

#include <cstddef>
#include <string>
#include <string_view>

#include "tournament/results.hpp"

namespace parley::tournament::report_detail {

/// Shown where there is no value.
inline constexpr std::string_view report_no_value = "–";

/// Returns `x` with `decimals` decimals, or "–" when it is not finite.
std::string report_decimal(double x, int decimals);

/// Returns `fraction` as a percentage with one decimal ("47.5%"): the same
/// precision as the fraction with three.
std::string report_percent(double fraction);

/// Returns `part / whole` as a percentage, "–" when `whole` is 0.
std::string report_percent_of(std::size_t part, std::size_t whole);

/// Returns `n` with thousands separators, "200,000".
std::string report_grouped(std::size_t n);

/// Returns `count` and `one` or `many`: "1 round", "12 rounds".
std::string report_counted(std::size_t count, std::string_view one,
                           std::string_view many);

/// Returns `text` escaped for HTML text and attribute values; control
/// characters, which HTML does not allow, become U+FFFD.
std::string report_escaped(std::string_view text);

/// Returns the escaped name of strategy `i`, or "strategy #i" when `r` has
/// no such strategy.
std::string report_strategy_name(const tournament_results& r, std::size_t i);

/// Returns "Scenario 3: name" (escaped), or "Scenario 3" when it has no name.
std::string report_scenario_title(std::size_t index, const scenario_summary& s);

} // namespace parley::tournament::report_detail
