#include "service/bearer.hpp"

#include <cctype>

namespace parley::service {

namespace {

constexpr std::string_view scheme = "bearer";

bool is_scheme(std::string_view word) {
  if (word.size() != scheme.size())
    return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(word[i])) != scheme[i])
      return false;
  return true;
}

/// Compares without stopping at the first difference.
bool same_secret(std::string_view given, const std::string& expected) {
  if (given.size() != expected.size())
    return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < given.size(); ++i)
    diff |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return diff == 0;
}

} // namespace

std::string trim_token(std::string_view text) {
  constexpr std::string_view blank = " \t\r\n\v\f";
  auto begin = text.find_first_not_of(blank);
  if (begin == std::string_view::npos)
    return {};
  auto end = text.find_last_not_of(blank);
  return std::string{text.substr(begin, end - begin + 1)};
}

bool carries_token(std::string_view authorization, const std::string& token) {
  if (authorization.size() <= scheme.size() ||
      !is_scheme(authorization.substr(0, scheme.size())) ||
      authorization[scheme.size()] != ' ')
    return false;
  auto begin = authorization.find_first_not_of(' ', scheme.size());
  return begin != std::string_view::npos &&
         same_secret(authorization.substr(begin), token);
}

} // namespace parley::service
