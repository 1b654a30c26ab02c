#include "messages/utf8.hpp"

namespace parley::messages {

std::size_t utf8_sequence_length(std::string_view x, std::size_t at) {
  auto byte = [&x](std::size_t i) {
    return static_cast<unsigned char>(x[i]);
  };
  auto c = byte(at);
  if (c < 0x80)
    return 1;
  std::size_t tail = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    tail = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    tail = 2;
    low = c == 0xE0 ? 0xA0 : low;   // no overlong form
    high = c == 0xED ? 0x9F : high; // no surrogate
  } else if (c >= 0xF0 && c <= 0xF4) {
    tail = 3;
    low = c == 0xF0 ? 0x90 : low;   // no overlong form
    high = c == 0xF4 ? 0x8F : high; // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (x.size() - at <= tail || byte(at + 1) < low || byte(at + 1) > high)
    return 0;
  for (std::size_t k = 2; k <= tail; ++k)
    if (byte(at + k) < 0x80 || byte(at + k) > 0xBF)
      return 0;
  return tail + 1;
}

bool is_utf8(std::string_view x) {
  for (std::size_t i = 0; i < x.size();) {
    auto n = utf8_sequence_length(x, i);
    if (n == 0)
      return false;
    i += n;
  }
  return true;
}

std::string escape_invalid_utf8(std::string_view x) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(x.size());
  for (std::size_t i = 0; i < x.size();) {
    auto n = utf8_sequence_length(x, i);
    if (n > 0) {
      out.append(x.substr(i, n));
      i += n;
      continue;
    }
    auto c = static_cast<unsigned char>(x[i++]);
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 0xF];
  }
  return out;
}

std::string_view utf8_prefix(std::string_view x, std::size_t max_bytes) {
  if (x.size() <= max_bytes)
    return x;
  auto end = max_bytes;
  // Back to the first byte of the sequence cut, if one is (at most 3 back).
  for (std::size_t back = 0; back < 3 && end > 0; ++back) {
    auto c = static_cast<unsigned char>(x[end]);
    if (c < 0x80 || c > 0xBF)
      break;
    --end;
  }
  return x.substr(0, end);
}

std::size_t find_control_character(std::string_view x) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    auto c = static_cast<unsigned char>(x[i]);
    auto next = i + 1 < x.size() ? static_cast<unsigned char>(x[i + 1]) : 0;
    if (c < 0x20 || c == 0x7F || (c == 0xC2 && next >= 0x80 && next <= 0x9F))
      return i;
  }
  return std::string_view::npos;
}

} // namespace parley::messages
