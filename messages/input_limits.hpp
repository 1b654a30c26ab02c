#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace parley::messages {

/// The default cap on the size of a scenario or configuration file: 4 MiB.
/// A larger file is refused before it is read (`parley --max-file-bytes`
/// changes the cap, within 1 KiB..1 GiB).
inline constexpr std::size_t default_max_file_bytes = std::size_t{4} << 20;

/// The longest id, or reference to one, and the longest object key: 128 bytes.
inline constexpr std::size_t max_id_bytes = 128;

/// The longest string anywhere in a scenario or configuration (descriptions,
/// reasons, instructions, transcript lines), and the longest a proposal's
/// `terms` may be as compact JSON: 64 KiB.
inline constexpr std::size_t max_text_bytes = std::size_t{64} << 10;

/// The deepest nesting of objects and arrays in a scenario or configuration.
inline constexpr std::size_t max_json_depth = 64;

/// Throws json_error naming the path at fault unless every string in `j` is at
/// most `max_text_bytes` long, every object key at most `max_id_bytes`, and
/// objects and arrays nest at most `max_json_depth` deep; `path` is where `j`
/// sits in its document. Checked right after parsing, before anything copies
/// or walks the document recursively.
void check_input_limits(const nlohmann::json& j, const std::string& path = {});

/// Throws json_error at `path` if `id` is longer than `max_id_bytes` or holds
/// a control character (messages/utf8.hpp: NUL among them), which no id,
/// name or reference of a document may hold.
void check_id_length(const std::string& id, const std::string& path);

/// Throws json_error at `path` if `text` is longer than `max_bytes`.
void check_length(const std::string& text, std::size_t max_bytes,
                  const std::string& path);

/// The content of a file, or why it could not be read.
struct file_text {
  std::string text;
  /// Empty when the file was read, otherwise the reason ("cannot open the
  /// file: No such file or directory").
  std::string error;
};

/// Reads the whole file at `path`, refusing one larger than `max_bytes`
/// before reading it (by its size when it has one, otherwise after reading
/// `max_bytes` + 1 bytes).
file_text read_text_file(const std::string& path, std::size_t max_bytes);

} // namespace parley::messages
