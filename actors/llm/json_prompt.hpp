#pragma once

// Prompts that ask a model for one JSON object, and reading what it answers: the five
// prompts of the channel protocol (docs/protocols/channels.md), each with a fallback
// when the answer is unusable. No tool use: the answer is text holding the object.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "actors/llm/wire_format.hpp"
#include "messages/json_reader.hpp"

namespace parley::actors::llm {

/// The language a prompt is written in: the language of the demand it is
/// about, so that the model answers in it.
enum class prompt_language : std::uint8_t { english, chinese };

/// Chinese if `text` holds a CJK ideograph (U+3400–U+9FFF, U+F900–U+FAFF,
/// U+20000 and up), otherwise English. Bytes that are not well-formed UTF-8
/// are skipped.
prompt_language language_of(std::string_view text);

/// `english` or `chinese`, as `language` says: a prompt's text in both.
inline const char* in_language(prompt_language language, const char* english,
                               const char* chinese) {
  return language == prompt_language::chinese ? chinese : english;
}

/// A system prompt and one user turn.
struct text_prompt {
  std::string system;
  std::string user;
};

/// The request body asking `model` for an answer to `prompt`, in the wire
/// format of `provider`, without tools.
std::string build_text_request(provider_kind provider, const std::string& model,
                               int max_tokens, const text_prompt& prompt);

/// Writes `j` for a prompt: indented, with text that is not well-formed
/// UTF-8 replaced rather than thrown on.
std::string prompt_json(const nlohmann::json& j);

/// The deepest nesting of arrays and objects an answer may have: deeper is
/// refused before it is parsed (nothing in the five answers nests beyond 4).
inline constexpr std::size_t max_answer_depth = 32;

/// The JSON object in a model's text answer, or why there is none.
struct json_answer {
  nlohmann::json value;
  std::string error;

  bool ok() const noexcept { return error.empty(); }
};

/// Finds the JSON object in `text`: the whole text, else the inside of its
/// first ``` fence (```json or bare), else the span from its first `{` to
/// its last `}` (text around the object). Anything else, a value that is not
/// an object, or one nested deeper than max_answer_depth is an error.
/// Never throws.
json_answer find_json_object(const std::string& text);

/// The result of one of the channel protocol's prompts: the model's answer, or (when
/// the answer was unusable) its fallback with the reason. Either way `value` is what
/// the caller uses.
template <class T> struct outcome {
  T value;
  /// Empty when `value` is the model's answer.
  std::string fallback_reason;

  bool fallback() const noexcept { return !fallback_reason.empty(); }
};

/// Finds the JSON object in `text` and runs `read(object)`, which returns an
/// empty string when the object is usable and otherwise why not, and may
/// throw messages::json_error (from messages::object_reader, which these
/// readers use without `done()`: a key the prompt did not ask for is
/// ignored, a model often adds one). Returns why the answer is unusable, or
/// an empty string.
template <class Read>
std::string read_json_answer(const std::string& text, Read&& read) {
  auto answer = find_json_object(text);
  if (!answer.ok())
    return answer.error;
  try {
    return read(answer.value);
  } catch (const messages::json_error& e) {
    return e.what();
  } catch (const nlohmann::json::exception& e) {
    return e.what();
  }
}

/// Reads a required string field that must not be empty (nor only spaces).
void read_text(messages::object_reader& r, const char* key, std::string& x);

/// Runs `read(reader)` on a reader of each element of `list`, an array of
/// objects at `path` in the answer; throws messages::json_error if it is not
/// one. Other keys of the objects are ignored, as in the whole answer.
template <class Read>
void read_each_object(const nlohmann::json& list, const std::string& path,
                      Read&& read) {
  if (!list.is_array())
    throw messages::json_error(path,
                               "expected an array, got " + messages::json_kind(list));
  for (std::size_t i = 0; i < list.size(); ++i) {
    messages::object_reader r{list[i], messages::path_index(path, i)};
    read(r);
  }
}

} // namespace parley::actors::llm
