#pragma once

#include <cstdint>
#include <string>

namespace parley::actors::agent {

/// Formats `minor` units of `currency` for people: "£1,080.00" (GBP), "$12.50"
/// (USD), "€3.00" (EUR), and "1,000.00 CHF" for any other code; always two
/// decimals, thousands grouped with commas, a negative amount with a leading
/// minus ("-£12.50").
std::string format_amount(std::int64_t minor, const std::string& currency);

} // namespace parley::actors::agent
