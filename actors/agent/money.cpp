#include "actors/agent/money.hpp"

namespace parley::actors::agent {

namespace {

/// The symbol written before the amount, or nullptr if the code follows it.
const char* symbol_of(const std::string& currency) {
  if (currency == "GBP")
    return "£";
  if (currency == "USD")
    return "$";
  if (currency == "EUR")
    return "€";
  return nullptr;
}

/// "1,080.00" for 108000: the magnitude in major units, grouped by thousands.
std::string digits_of(std::uint64_t magnitude) {
  auto cents = magnitude % 100;
  auto units = std::to_string(magnitude / 100);
  std::string grouped;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (i > 0 && (units.size() - i) % 3 == 0)
      grouped += ',';
    grouped += units[i];
  }
  return grouped + '.' + static_cast<char>('0' + cents / 10) +
         static_cast<char>('0' + cents % 10);
}

} // namespace

std::string format_amount(std::int64_t minor, const std::string& currency) {
  // Negating in unsigned arithmetic keeps the smallest int64 well defined.
  auto magnitude = minor < 0 ? 0 - static_cast<std::uint64_t>(minor)
                             : static_cast<std::uint64_t>(minor);
  std::string text = minor < 0 ? "-" : "";
  if (auto symbol = symbol_of(currency))
    return text + symbol + digits_of(magnitude);
  return text + digits_of(magnitude) + ' ' + currency;
}

} // namespace parley::actors::agent
