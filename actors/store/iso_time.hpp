#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace parley::actors::store {

/// Unix milliseconds as ISO 8601 UTC with milliseconds,
/// "2025-10-07T12:00:00.000Z": the timestamps of the rounds JSON, and of
/// every TIMESTAMPTZ column in SQLite (where the text sorts in time order).
std::string to_iso(std::int64_t unix_ms);

/// The same, appended to `out`.
void append_iso(std::string& out, std::int64_t unix_ms);

/// Room for what `format_iso` writes (a year may have more than 4 digits).
constexpr std::size_t iso_buffer_size = 48;

/// The same, written to `out` (iso_buffer_size bytes); returns its length.
std::size_t format_iso(std::int64_t unix_ms, char* out);

/// Parses what `to_iso` writes (the fraction may have 0 to 6 digits and the
/// 'Z' may be a "+00:00"); returns false for anything else.
bool from_iso(const std::string& text, std::int64_t& unix_ms);

} // namespace parley::actors::store
