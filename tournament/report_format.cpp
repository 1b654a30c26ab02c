#include "tournament/report_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace parley::tournament::report_detail {

std::string report_decimal(double x, int decimals) {
  if (!std::isfinite(x))
    return std::string(report_no_value);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, x);
  std::string text = buffer;
  // snprintf follows LC_NUMERIC; the page uses a point whatever the locale.
  std::replace(text.begin(), text.end(), ',', '.');
  // A value that rounds to zero reads "0.000", not "-0.000".
  if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos)
    text.erase(0, 1);
  return text;
}

std::string report_percent(double fraction) {
  if (!std::isfinite(fraction))
    return std::string(report_no_value);
  return report_decimal(100.0 * fraction, 1) + "%";
}

std::string report_percent_of(std::size_t part, std::size_t whole) {
  if (whole == 0)
    return std::string(report_no_value);
  return report_percent(static_cast<double>(part) / static_cast<double>(whole));
}

std::string report_grouped(std::size_t n) {
  const auto digits = std::to_string(n);
  std::string text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      text += ',';
    text += digits[i];
  }
  return text;
}

std::string report_counted(std::size_t count, std::string_view one,
                           std::string_view many) {
  return report_grouped(count) + " " + std::string(count == 1 ? one : many);
}

std::string report_escaped(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      escaped += "&amp;";
      break;
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    case '\'':
      escaped += "&#39;";
      break;
    default: {
      const auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && c != '\t' && c != '\n') || byte == 0x7f)
        escaped += "\xEF\xBF\xBD";
      else
        escaped += c;
    }
    }
  }
  return escaped;
}

std::string report_strategy_name(const tournament_results& r, std::size_t i) {
  if (i < r.strategies.size())
    return report_escaped(r.strategies[i]);
  return "strategy #" + std::to_string(i);
}

std::string report_scenario_title(std::size_t index, const scenario_summary& s) {
  auto title = "Scenario " + std::to_string(index + 1);
  if (!s.name.empty())
    title += ": " + report_escaped(s.name);
  return title;
}

} // namespace parley::tournament::report_detail
