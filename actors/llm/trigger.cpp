#include "actors/llm/trigger.hpp"

#include <regex>

namespace parley::actors::llm {

std::optional<trigger> detect_trigger(const std::string& text) {
  static const std::regex amount{
      R"((?:(?:£|\$|€)\s?\d[\d,]*(?:\.\d{1,2})?)|(?:\b\d[\d,]*(?:\.\d{1,2})?\s?(?:gbp|usd|eur|pounds?|dollars?|euros?)\b))",
      std::regex::icase};
  static const std::regex agreement{
      R"(\b(?:it'?s a deal|deal|agreed|sounds good|let'?s do it|works for me)\b)",
      std::regex::icase};
  std::smatch a;
  std::smatch g;
  bool has_amount = std::regex_search(text, a, amount);
  bool has_agreement = std::regex_search(text, g, agreement);
  if (has_amount && (!has_agreement || a.position(0) <= g.position(0)))
    return trigger{"amount", a.str(0), 0.7};
  if (has_agreement)
    return trigger{"agreement", g.str(0), 0.8};
  return std::nullopt;
}

} // namespace parley::actors::llm
