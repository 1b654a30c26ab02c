#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "caf/optional.hpp"

namespace parley::messages {

/// A value in a JSON document did not fit; `path()` names where, in the form
/// `agents[2].preferences.style`.
class json_error : public std::runtime_error {
public:
  json_error(std::string path, const std::string& what)
      : std::runtime_error((path.empty() ? std::string{"(document)"} : path) + ": " +
                           what),
        path_(std::move(path)) {}

  const std::string& path() const noexcept { return path_; }

private:
  std::string path_;
};

/// The text given to parse_json is not JSON (its path is the line and column
/// of the problem, or empty when it has none: a number beyond a double).
class json_syntax_error : public json_error {
public:
  using json_error::json_error;
};

/// Joins a path and an object key.
std::string path_join(const std::string& path, const std::string& key);

/// Joins a path and an array index.
std::string path_index(const std::string& path, std::size_t index);

/// Returns the JSON type of `j` as a user would say it ("string", "integer").
std::string json_kind(const nlohmann::json& j);

// Typed reads of single values: each throws json_error naming `path` when `j`
// does not have the expected type or range.
void read(const nlohmann::json& j, const std::string& path, std::string& x);
void read(const nlohmann::json& j, const std::string& path, bool& x);
void read(const nlohmann::json& j, const std::string& path, std::int64_t& x);
void read(const nlohmann::json& j, const std::string& path, std::int32_t& x);
void read(const nlohmann::json& j, const std::string& path, std::uint64_t& x);
void read(const nlohmann::json& j, const std::string& path, double& x);

template <class T>
void read(const nlohmann::json& j, const std::string& path, caf::optional<T>& x) {
  if (j.is_null()) {
    x = caf::none;
    return;
  }
  T value;
  read(j, path, value);
  x = std::move(value);
}

template <class T>
void read(const nlohmann::json& j, const std::string& path, std::vector<T>& xs) {
  if (!j.is_array())
    throw json_error(path, "expected an array, got " + json_kind(j));
  xs.clear();
  xs.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    T value;
    read(j[i], path_index(path, i), value);
    xs.push_back(std::move(value));
  }
}

template <class T>
void read(const nlohmann::json& j, const std::string& path,
          std::map<std::string, T>& xs) {
  if (!j.is_object())
    throw json_error(path, "expected an object, got " + json_kind(j));
  xs.clear();
  for (auto i = j.begin(); i != j.end(); ++i) {
    T value;
    read(i.value(), path_join(path, i.key()), value);
    xs.emplace(i.key(), std::move(value));
  }
}

/// Reads the fields of one JSON object, knowing where it sits in the document.
/// Unknown keys are an error (a typo should not pass silently), checked by
/// `done()`.
class object_reader {
public:
  object_reader(const nlohmann::json& j, std::string path);

  /// Reads `key` into `x`; a missing key is an error.
  template <class T> void required(const char* key, T& x) {
    read(at(key, true), path_join(path_, key), x);
  }

  /// Reads `key` into `x` when present and not null; otherwise leaves `x`.
  template <class T> void optional(const char* key, T& x) {
    const auto& value = at(key, false);
    if (!value.is_null())
      read(value, path_join(path_, key), x);
  }

  /// Returns whether `key` is present and not null (and marks it as known).
  bool has(const char* key);

  /// The raw value of `key` (null when missing); marks it as known.
  const nlohmann::json& raw(const char* key);

  /// The path of `key` inside the document.
  std::string path_of(const char* key) const { return path_join(path_, key); }

  const std::string& path() const noexcept { return path_; }

  /// Throws if the object has a key that no call above asked for.
  void done() const;

private:
  const nlohmann::json& at(const char* key, bool required);

  const nlohmann::json& object_;
  std::string path_;
  std::set<std::string> seen_;
};

/// Reads an enum written as its snake_case name; `from_string` is found by ADL.
template <class Enum>
void read_enum(const nlohmann::json& j, const std::string& path, Enum& x,
               const std::string& choices) {
  if (!j.is_string())
    throw json_error(path, "expected one of " + choices + ", got " + json_kind(j));
  if (!from_string(j.get<std::string>(), x))
    throw json_error(path, "expected one of " + choices + ", got \"" +
                               j.get<std::string>() + "\"");
}

/// Parses `text` strictly: bad syntax throws json_syntax_error, whose path is
/// the line and column of the problem (a number too large for a double has
/// none: its path is the whole document); an object that has a key twice
/// throws json_error at the key's path, with the line and column where it
/// is given the second time.
nlohmann::json parse_json(const std::string& text);

} // namespace parley::messages
