#include "actors/store/uuid.hpp"

#include <cstdint>

namespace parley::actors::store {

namespace {

bool lower_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool hex(char c) {
  return lower_hex(c) || (c >= 'A' && c <= 'F');
}

/// Whether `s` is 8-4-4-4-12 digits that `digit` accepts.
template <class Digit> bool uuid_shaped(std::string_view s, Digit digit) {
  if (s.size() != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
    return false;
  for (std::size_t i = 0; i < 36; ++i)
    if (i != 8 && i != 13 && i != 18 && i != 23 && !digit(s[i]))
      return false;
  return true;
}

/// FNV-1a, 64 bits, from `basis`.
std::uint64_t fnv1a(const std::string& text, std::uint64_t basis) {
  auto h = basis;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

} // namespace

bool is_uuid(std::string_view s) {
  return uuid_shaped(s, hex);
}

bool is_lower_uuid(std::string_view s) {
  return uuid_shaped(s, lower_hex);
}

std::string uuid_for_text(const std::string& text) {
  auto hi = fnv1a(text, 0xcbf29ce484222325ULL);
  auto lo = fnv1a(text, hi ^ 0x9e3779b97f4a7c15ULL);
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000008000ULL; // version 8
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL; // variant 1
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 32; ++i) {
    auto word = i < 16 ? hi : lo;
    out.push_back(digits[(word >> (60 - 4 * (i % 16))) & 0xf]);
    if (i == 7 || i == 11 || i == 15 || i == 19)
      out.push_back('-');
  }
  return out;
}

} // namespace parley::actors::store
