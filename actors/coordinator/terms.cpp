#include "actors/coordinator/terms.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace parley::actors::coordinator {

namespace {

enum class char_class : std::uint8_t { separator, word, ideograph };

/// What a byte outside well-formed UTF-8 decodes to: a separator.
constexpr char32_t replacement = 0xFFFD;

constexpr std::size_t stem_length = 5;

constexpr std::array<std::string_view, 17> function_words = {
    "an", "and", "are", "as", "at",  "be", "by", "for", "from",
    "in", "is",  "of",  "on", "the", "to", "or", "with"};

/// Decodes the code point at `i` and moves `i` past it. A byte that does not
/// start a well-formed sequence (RFC 3629) decodes alone to `replacement`.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    ++i;
    return c;
  }
  std::size_t length = c >= 0xC2 && c <= 0xDF   ? 2
                       : c >= 0xE0 && c <= 0xEF ? 3
                       : c >= 0xF0 && c <= 0xF4 ? 4
                                                : 0;
  if (length == 0 || s.size() - i < length) {
    ++i;
    return replacement;
  }
  char32_t x = c & (0xFFu >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) {
    auto t = static_cast<unsigned char>(s[i + k]);
    if ((t & 0xC0) != 0x80) {
      ++i;
      return replacement;
    }
    x = (x << 6) | (t & 0x3Fu);
  }
  auto overlong = (length == 3 && x < 0x800) || (length == 4 && x < 0x10000);
  if (overlong || x > 0x10FFFF || (x >= 0xD800 && x <= 0xDFFF)) {
    ++i;
    return replacement;
  }
  i += length;
  return x;
}

char_class classify(char32_t c) {
  if (c < 0x80) {
    auto alnum =
        (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return alnum ? char_class::word : char_class::separator;
  }
  if (c <= 0xBF || (c >= 0x2000 && c <= 0x206F) || (c >= 0x3000 && c <= 0x303F) ||
      (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFFF))
    return char_class::separator;
  if ((c >= 0x2E80 && c <= 0x2FFF) || (c >= 0x3040 && c <= 0x9FFF) ||
      (c >= 0xF900 && c <= 0xFAFF) || c >= 0x20000)
    return char_class::ideograph;
  return char_class::word;
}

/// Collects the terms of one text, run by run.
class term_collector {
public:
  term_collector(term_match match, std::set<std::string>& out)
      : match_(match), out_(out) {}

  void add(char_class kind, std::string_view bytes) {
    if (kind != char_class::word)
      end_word();
    if (kind != char_class::ideograph)
      end_ideographs();
    if (kind == char_class::word)
      for (auto c : bytes)
        word_ += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    else if (kind == char_class::ideograph)
      ideographs_.push_back(bytes);
  }

  void finish() {
    end_word();
    end_ideographs();
  }

private:
  void end_word() {
    auto ascii = std::all_of(word_.begin(), word_.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x80;
    });
    auto function_word = std::find(function_words.begin(), function_words.end(),
                                   word_) != function_words.end();
    if (ascii && (word_.size() < 2 || function_word)) {
      word_.clear();
      return;
    }
    if (ascii && match_ == term_match::stemmed && word_.size() > stem_length)
      word_.resize(stem_length);
    out_.insert(std::move(word_));
    word_.clear();
  }

  void end_ideographs() {
    if (ideographs_.size() == 1)
      out_.emplace(ideographs_.front());
    for (std::size_t k = 1; k < ideographs_.size(); ++k)
      out_.insert(std::string{ideographs_[k - 1]} + std::string{ideographs_[k]});
    ideographs_.clear();
  }

  term_match match_;
  std::set<std::string>& out_;
  std::string word_;
  std::vector<std::string_view> ideographs_;
};

} // namespace

std::set<std::string> terms_of(std::string_view text, term_match match) {
  std::set<std::string> result;
  term_collector collector{match, result};
  std::size_t i = 0;
  while (i < text.size()) {
    auto start = i;
    auto c = next_code_point(text, i);
    collector.add(classify(c), text.substr(start, i - start));
  }
  collector.finish();
  return result;
}

} // namespace parley::actors::coordinator
