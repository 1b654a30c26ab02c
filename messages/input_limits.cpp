#include "messages/input_limits.hpp"

#include <cerrno>
#include <cstdio>
#include <memory>
#include <system_error>

#include <sys/stat.h>

#include "messages/json_reader.hpp"
#include "messages/utf8.hpp"

namespace parley::messages {

namespace {

/// Whether `j` needs a closer look (and so its path): a container, or a string
/// over the cap. Scalars within the caps cost no path.
bool needs_check(const nlohmann::json& j) {
  return j.is_structured() ||
         (j.is_string() && j.get_ref<const std::string&>().size() > max_text_bytes);
}

/// Walks `j` at nesting level `depth` (1 for a container at the top).
void check_node(const nlohmann::json& j, const std::string& path, std::size_t depth) {
  if (j.is_string())
    check_length(j.get_ref<const std::string&>(), max_text_bytes, path);
  if (!j.is_structured())
    return;
  if (depth > max_json_depth)
    throw json_error(path, "objects and arrays must nest at most " +
                               std::to_string(max_json_depth) + " deep");
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (needs_check(j[i]))
        check_node(j[i], path_index(path, i), depth + 1);
    return;
  }
  for (auto i = j.begin(); i != j.end(); ++i) {
    if (i.key().size() > max_id_bytes)
      throw json_error(path,
                       "object keys must be at most " + std::to_string(max_id_bytes) +
                           " bytes long, got one of " + std::to_string(i.key().size()));
    if (needs_check(i.value()))
      check_node(i.value(), path_join(path, i.key()), depth + 1);
  }
}

std::string system_message(int error) {
  return std::error_code{error, std::generic_category()}.message();
}

std::string too_large(std::size_t max_bytes) {
  return "the file is larger than the cap of " + std::to_string(max_bytes) +
         " bytes on input files";
}

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

} // namespace

void check_input_limits(const nlohmann::json& j, const std::string& path) {
  check_node(j, path, 1);
}

void check_length(const std::string& text, std::size_t max_bytes,
                  const std::string& path) {
  if (text.size() > max_bytes)
    throw json_error(path, "must be at most " + std::to_string(max_bytes) +
                               " bytes long, got " + std::to_string(text.size()));
}

void check_id_length(const std::string& id, const std::string& path) {
  check_length(id, max_id_bytes, path);
  if (auto at = find_control_character(id); at != std::string::npos) {
    static constexpr char hex[] = "0123456789ABCDEF";
    auto c = static_cast<unsigned char>(id[at] == '\xC2' ? id[at + 1] : id[at]);
    throw json_error(path, std::string{"must not hold a control character, got U+00"} +
                               hex[c >> 4] + hex[c & 0xF] + " at byte " +
                               std::to_string(at));
  }
}

file_text read_text_file(const std::string& path, std::size_t max_bytes) {
  file_text result;
  std::unique_ptr<std::FILE, file_closer> file{std::fopen(path.c_str(), "rb")};
  if (!file) {
    result.error = "cannot open the file: " + system_message(errno);
    return result;
  }
  struct stat info {};
  if (fstat(fileno(file.get()), &info) == 0 && S_ISREG(info.st_mode) &&
      static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
    result.error = too_large(max_bytes);
    return result;
  }
  char buffer[65536];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) {
    if (result.text.size() + n > max_bytes) {
      result.text.clear();
      result.error = too_large(max_bytes);
      return result;
    }
    result.text.append(buffer, n);
  }
  if (std::ferror(file.get())) {
    result.text.clear();
    result.error = "cannot read the file: " + system_message(errno);
  }
  return result;
}

} // namespace parley::messages
