#include "actors/store/uuid.hpp"

#include <array>
#include <cstdint>

namespace parley::actors::store {

namespace {

/// What each byte is as a UUID's digit: a lower-case hex digit (0-9 a-f), an
/// upper-case one (0-9 A-F), both, or neither (0).
constexpr unsigned char lower = 1;
constexpr unsigned char upper = 2;

constexpr std::array<unsigned char, 256> digit_kinds() {
  std::array<unsigned char, 256> t{};
  for (int c = '0'; c <= '9'; ++c)
    t[static_cast<std::size_t>(c)] = lower | upper;
  for (int c = 'a'; c <= 'f'; ++c)
    t[static_cast<std::size_t>(c)] = lower;
  for (int c = 'A'; c <= 'F'; ++c)
    t[static_cast<std::size_t>(c)] = upper;
  return t;
}

constexpr std::array<unsigned char, 256> kinds = digit_kinds();

/// Whether `s` is 8-4-4-4-12 digits each of a kind in `accepted`: one table
/// look-up per byte, no branch. The store checks every id it writes, and its
/// glob() each UUID a row binds (actors/store/sqlite_glob.cpp).
bool uuid_shaped(std::string_view s, unsigned char accepted) {
  if (s.size() != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
    return false;
  bool ok = true;
  for (std::size_t i = 0; i < 36; ++i) {
    bool hyphen = i == 8 || i == 13 || i == 18 || i == 23;
    ok &= hyphen || (kinds[static_cast<unsigned char>(s[i])] & accepted) != 0;
  }
  return ok;
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
  return uuid_shaped(s, lower | upper);
}

bool is_lower_uuid(std::string_view s) {
  return uuid_shaped(s, lower);
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
