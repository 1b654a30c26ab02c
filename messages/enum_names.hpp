#pragma once

#include <cstddef>
#include <string>

namespace parley::messages {

/// Returns `names[x]`, or "unknown" for a value outside the table (a peer may
/// send any integer for an enum: CAF 0.17 does not range-check).
template <class Enum, std::size_t N>
std::string enum_name(const char* const (&names)[N], Enum x) {
  auto i = static_cast<std::size_t>(x);
  return i < N ? names[i] : "unknown";
}

/// Looks `text` up in `names`; returns false if it is not there.
template <class Enum, std::size_t N>
bool enum_from_name(const char* const (&names)[N], const std::string& text, Enum& x) {
  for (std::size_t i = 0; i < N; ++i) {
    if (text == names[i]) {
      x = static_cast<Enum>(i);
      return true;
    }
  }
  return false;
}

/// Lists the names as `a | b | c` for error messages.
template <std::size_t N> std::string enum_choices(const char* const (&names)[N]) {
  std::string result;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0)
      result += " | ";
    result += names[i];
  }
  return result;
}

} // namespace parley::messages

/// Defines `to_string(type)` and `from_string(text, type&)` from a table of
/// names in enumerator order, in the namespace where it is used.
#define PARLEY_ENUM_NAMES(type, names)                                                 \
  std::string to_string(type x) {                                                      \
    return ::parley::messages::enum_name(names, x);                                    \
  }                                                                                    \
  bool from_string(const std::string& text, type& x) {                                 \
    return ::parley::messages::enum_from_name(names, text, x);                         \
  }
