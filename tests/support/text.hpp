#pragma once

#include <cctype>
#include <string>

namespace parley::test {

/// `x` in lower case (ASCII), for comparing HTTP header names.
inline std::string lower(std::string x) {
  for (auto& c : x)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return x;
}

} // namespace parley::test
