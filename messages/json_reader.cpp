#include "messages/json_reader.hpp"

#include <limits>

namespace parley::messages {

std::string path_join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string path_index(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string json_kind(const nlohmann::json& j) {
  switch (j.type()) {
  case nlohmann::json::value_t::null:
    return "null";
  case nlohmann::json::value_t::object:
    return "an object";
  case nlohmann::json::value_t::array:
    return "an array";
  case nlohmann::json::value_t::string:
    return "a string";
  case nlohmann::json::value_t::boolean:
    return "a boolean";
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned:
    return "an integer";
  case nlohmann::json::value_t::number_float:
    return "a number with a fraction";
  default:
    return "an unsupported value";
  }
}

void read(const nlohmann::json& j, const std::string& path, std::string& x) {
  if (!j.is_string())
    throw json_error(path, "expected a string, got " + json_kind(j));
  x = j.get<std::string>();
}

void read(const nlohmann::json& j, const std::string& path, bool& x) {
  if (!j.is_boolean())
    throw json_error(path, "expected true or false, got " + json_kind(j));
  x = j.get<bool>();
}

void read(const nlohmann::json& j, const std::string& path, std::int64_t& x) {
  if (j.is_number_unsigned()) {
    auto value = j.get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw json_error(path, "integer too large");
    x = static_cast<std::int64_t>(value);
    return;
  }
  if (!j.is_number_integer())
    throw json_error(path, "expected an integer, got " + json_kind(j));
  x = j.get<std::int64_t>();
}

void read(const nlohmann::json& j, const std::string& path, std::int32_t& x) {
  std::int64_t wide = 0;
  read(j, path, wide);
  if (wide < std::numeric_limits<std::int32_t>::min() ||
      wide > std::numeric_limits<std::int32_t>::max())
    throw json_error(path, "integer out of range: " + std::to_string(wide));
  x = static_cast<std::int32_t>(wide);
}

void read(const nlohmann::json& j, const std::string& path, std::uint64_t& x) {
  if (j.is_number_unsigned()) {
    x = j.get<std::uint64_t>();
    return;
  }
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0) {
    x = static_cast<std::uint64_t>(j.get<std::int64_t>());
    return;
  }
  throw json_error(path, "expected a non-negative integer, got " + json_kind(j));
}

void read(const nlohmann::json& j, const std::string& path, double& x) {
  if (!j.is_number())
    throw json_error(path, "expected a number, got " + json_kind(j));
  x = j.get<double>();
}

object_reader::object_reader(const nlohmann::json& j, std::string path)
    : object_(j), path_(std::move(path)) {
  if (!j.is_object())
    throw json_error(path_, "expected an object, got " + json_kind(j));
}

const nlohmann::json& object_reader::at(const char* key, bool required) {
  static const nlohmann::json null_value;
  seen_.insert(key);
  auto i = object_.find(key);
  if (i == object_.end()) {
    if (required)
      throw json_error(path_join(path_, key), "required field is missing");
    return null_value;
  }
  return *i;
}

bool object_reader::has(const char* key) {
  return !at(key, false).is_null();
}

const nlohmann::json& object_reader::raw(const char* key) {
  return at(key, false);
}

void object_reader::done() const {
  for (auto i = object_.begin(); i != object_.end(); ++i)
    if (seen_.count(i.key()) == 0)
      throw json_error(path_join(path_, i.key()), "unknown field");
}

nlohmann::json parse_json(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    std::size_t line = 1;
    std::size_t column = 1;
    auto end = std::min(text.size(), e.byte > 0 ? e.byte - 1 : 0);
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    auto pos = what.find("parse error");
    throw json_error(
        "line " + std::to_string(line) + ", column " + std::to_string(column),
        "invalid JSON: " + (pos == std::string::npos ? what : what.substr(pos)));
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double's range ("1e800"); it has no position.
    std::string what = e.what();
    auto pos = what.find("] ");
    throw json_error({}, "invalid JSON: " +
                             (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
}

} // namespace parley::messages
