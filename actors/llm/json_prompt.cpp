#include "actors/llm/json_prompt.hpp"

#include <algorithm>

namespace parley::actors::llm {

using nlohmann::json;

namespace {

/// Decodes the code point at `text[i]`, advancing `i`; returns 0 for a byte
/// that does not start well-formed UTF-8 (skipping just that byte).
char32_t next_code_point(std::string_view text, std::size_t& i) {
  auto byte = [&](std::size_t k) {
    return static_cast<unsigned char>(text[k]);
  };
  auto lead = byte(i++);
  if (lead < 0x80)
    return lead;
  std::size_t extra = lead >= 0xF0 && lead < 0xF5   ? 3
                      : lead >= 0xE0 && lead < 0xF0 ? 2
                      : lead >= 0xC2 && lead < 0xE0 ? 1
                                                    : 0;
  if (extra == 0 || i + extra > text.size())
    return 0;
  char32_t cp = lead & (0x3F >> extra);
  for (std::size_t k = 0; k < extra; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  i += extra;
  return cp;
}

bool is_ideograph(char32_t cp) {
  return (cp >= 0x3400 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         cp >= 0x20000;
}

/// How deeply arrays and objects nest in `text`, strings skipped.
std::size_t nesting_depth(std::string_view text) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

/// Parses `text` as one JSON object.
json_answer parse_object(std::string_view text) {
  json_answer result;
  if (nesting_depth(text) > max_answer_depth) {
    result.error = "the answer nests deeper than " + std::to_string(max_answer_depth);
    return result;
  }
  result.value = json::parse(text.begin(), text.end(), nullptr, false);
  if (result.value.is_discarded())
    result.error = "the answer is not valid JSON";
  else if (!result.value.is_object())
    result.error =
        "the answer is " + messages::json_kind(result.value) + ", not a JSON object";
  return result;
}

/// The inside of the first ``` fence of `text`, without its language tag.
std::string_view fenced(std::string_view text) {
  auto open = text.find("```");
  if (open == std::string_view::npos)
    return {};
  auto body = text.find('\n', open + 3);
  if (body == std::string_view::npos)
    return {};
  auto close = text.find("```", body);
  if (close == std::string_view::npos)
    return {};
  return text.substr(body + 1, close - body - 1);
}

} // namespace

prompt_language language_of(std::string_view text) {
  for (std::size_t i = 0; i < text.size();)
    if (is_ideograph(next_code_point(text, i)))
      return prompt_language::chinese;
  return prompt_language::english;
}

std::string build_text_request(provider_kind provider, const std::string& model,
                               int max_tokens, const text_prompt& prompt) {
  json messages = json::array({{{"role", "user"}, {"content", prompt.user}}});
  request_parts parts;
  parts.model = model;
  parts.max_tokens = max_tokens;
  parts.system = prompt.system;
  parts.messages = &messages;
  return build_request(provider, parts);
}

std::string prompt_json(const json& j) {
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

json_answer find_json_object(const std::string& text) {
  auto whole = parse_object(text);
  if (whole.ok())
    return whole;
  if (auto inside = fenced(text); !inside.empty())
    if (auto answer = parse_object(inside); answer.ok())
      return answer;
  auto first = text.find('{');
  auto last = text.rfind('}');
  if (first == std::string::npos || last == std::string::npos || last < first) {
    json_answer none;
    none.error = text.find_first_not_of(" \t\r\n") == std::string::npos
                     ? "the answer is empty"
                     : "the answer holds no JSON object";
    return none;
  }
  return parse_object(std::string_view{text}.substr(first, last - first + 1));
}

void read_text(messages::object_reader& r, const char* key, std::string& x) {
  r.required(key, x);
  if (x.find_first_not_of(" \t\r\n") == std::string::npos)
    throw messages::json_error(r.path_of(key), "must not be empty");
}

} // namespace parley::actors::llm
