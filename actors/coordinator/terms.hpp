#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace parley::actors::coordinator {

/// How loosely two texts are compared.
enum class term_match : std::uint8_t {
  /// Whole words and ideograph pairs.
  exact,
  /// As `exact`, but ASCII words longer than five letters are cut to their
  /// first five: "speaker" and "speaking" both give "speak".
  stemmed,
};

/// The terms of a UTF-8 text: the unit in which the coordinator's rules
/// compare a demand with capabilities. Chinese puts no spaces between words
/// and cannot be split into words without a dictionary, so pairs of
/// neighbouring ideographs stand in for its words.
///
/// - A run of word characters is one term, ASCII letters lower-cased.
///   One-letter ASCII words and a few English function words ("and", "the",
///   "for", ...) are left out: they would match every tag.
/// - A run of ideographs (U+2E80–U+2FFF, U+3040–U+9FFF, U+F900–U+FAFF,
///   U+20000 and up: CJK and kana) gives each pair of neighbours as a term,
///   "需要场地" gives 需要, 要场 and 场地; a lone ideograph is a term itself.
/// - Separators end a run: ASCII other than letters and digits, U+0080–U+00BF,
///   general punctuation U+2000–U+206F, CJK punctuation U+3000–U+303F,
///   U+FE30–U+FE4F and U+FF00–U+FFFF (full-width punctuation), and any byte
///   that is not part of well-formed UTF-8.
/// - Every other code point is a word character (accented Latin, Greek,
///   Cyrillic, Hangul...).
std::set<std::string> terms_of(std::string_view text,
                               term_match match = term_match::exact);

} // namespace parley::actors::coordinator
