#include "messages/proposal.hpp"

#include <nlohmann/json.hpp>

namespace parley::messages {

bool is_currency_code(const std::string& code) {
  if (code.size() != 3)
    return false;
  for (char c : code)
    if (c < 'A' || c > 'Z')
      return false;
  return true;
}

std::string validate(const proposal& x) {
  if (x.amount <= 0)
    return "amount must be a positive integer in minor units, got " +
           std::to_string(x.amount);
  if (!is_currency_code(x.currency))
    return "currency must be an ISO 4217 code such as GBP, got \"" + x.currency + "\"";
  // Terms arrive from the wire unparsed: this is where they are checked,
  // on every offer, so without building a document (a valid JSON text whose
  // first token is '{' is an object).
  const auto& text = x.terms.text;
  auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{' || !nlohmann::json::accept(text))
    return "terms must be a JSON object";
  return {};
}

} // namespace parley::messages
