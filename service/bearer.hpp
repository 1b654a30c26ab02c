#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace parley::service {

/// The fewest characters a bearer token may have (after trimming): a shorter
/// one is guessed too easily, and serve refuses to start with it (E019).
inline constexpr std::size_t min_token_length = 16;

/// Failed (401) requests one keep-alive connection may make: the last of them
/// is answered and the connection closed, so guessing costs a new connection.
inline constexpr std::size_t max_failed_tokens_per_connection = 3;

/// `text` without the spaces, tabs and line ends around it.
std::string trim_token(std::string_view text);

/// Whether `authorization` (an `Authorization` header's value) carries
/// `token`: the scheme `Bearer` in any case (RFC 7235), one or more spaces,
/// then exactly the token, compared in constant time (a guess's timing does
/// not tell how much of it was right).
bool carries_token(std::string_view authorization, const std::string& token);

} // namespace parley::service
