#pragma once

// UTF-8 as RFC 3629 has it: whether text is well-formed, and text made safe
// to echo (an error message that quotes client bytes is dumped as JSON,
// which must not meet a byte that is not UTF-8).

#include <cstddef>
#include <string>
#include <string_view>

namespace parley::messages {

/// The length of the well-formed UTF-8 sequence that starts at `x[at]` (1 to
/// 4 bytes; no overlong form, surrogate or code point past U+10FFFF); 0 when
/// none starts there.
std::size_t utf8_sequence_length(std::string_view x, std::size_t at);

/// Whether `x` is well-formed UTF-8.
bool is_utf8(std::string_view x);

/// `x` with every byte that is not part of a well-formed UTF-8 sequence
/// written as a visible escape (`\xFF`): what an error text may quote of
/// client input.
std::string escape_invalid_utf8(std::string_view x);

/// The longest prefix of `x` of at most `max_bytes` that does not end
/// inside a UTF-8 sequence (a quote of a long value, cut short).
std::string_view utf8_prefix(std::string_view x, std::size_t max_bytes);

/// Where the first control character of the UTF-8 text `x` starts (C0
/// U+0000..U+001F, DEL U+007F, C1 U+0080..U+009F); npos when it has none.
std::size_t find_control_character(std::string_view x);

} // namespace parley::messages
