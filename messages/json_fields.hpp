#pragma once

// The JSON mapping of a type whose `inspect` names its fields
// (messages/fields.hpp): `write_fields` and `read_fields` walk that inspect,
// so the JSON keys, and which of them are required, come from it.

#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "caf/meta/annotation.hpp"
#include "caf/optional.hpp"

#include "messages/fields.hpp"
#include "messages/json_reader.hpp"

namespace parley::messages {

namespace detail {

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<caf::optional<T>> : std::true_type {};

/// Writes each named field into a JSON object.
class json_field_writer {
public:
  using result_type = void;
  static constexpr bool reads_state = true;
  static constexpr bool writes_state = false;

  explicit json_field_writer(nlohmann::json& j) : j_(j) {}

  template <class... Ts> void operator()(Ts&&... xs) { (write(xs), ...); }

private:
  template <class T> void write(const T&) {
    static_assert(caf::meta::is_annotation<T>::value,
                  "the JSON mapping needs every field of inspect named");
  }

  template <class T> void write(const named_field<T>& x) {
    using value_type = std::remove_const_t<T>;
    if (x.presence == json_presence::hand_written)
      return;
    if constexpr (is_optional<value_type>::value) {
      if (x.value)
        j_[x.name] = *x.value;
      else if (x.presence != json_presence::omitted_if_none)
        j_[x.name] = nullptr;
    } else if constexpr (std::is_arithmetic_v<value_type>) {
      if (x.presence != json_presence::omitted_if_default || x.value != value_type{})
        j_[x.name] = x.value;
    } else {
      j_[x.name] = x.value;
    }
  }

  nlohmann::json& j_;
};

/// Reads each named field from an object_reader.
class json_field_reader {
public:
  using result_type = void;
  static constexpr bool reads_state = false;
  static constexpr bool writes_state = true;

  explicit json_field_reader(object_reader& r) : r_(r) {}

  template <class... Ts> void operator()(Ts&&... xs) { (read(xs), ...); }

private:
  template <class T> void read(const T&) {
    static_assert(caf::meta::is_annotation<T>::value,
                  "the JSON mapping needs every field of inspect named");
  }

  template <class T> void read(const named_field<T>& x) {
    switch (x.presence) {
    case json_presence::required:
      r_.required(x.name, x.value);
      break;
    case json_presence::optional:
    case json_presence::omitted_if_none:
    case json_presence::omitted_if_default:
      r_.optional(x.name, x.value);
      break;
    case json_presence::hand_written:
      break;
    }
  }

  object_reader& r_;
};

} // namespace detail

/// Makes `j` an object with the fields of `x`.
template <class T> void write_fields(nlohmann::json& j, const T& x) {
  j = nlohmann::json::object();
  detail::json_field_writer f{j};
  inspect(f, const_cast<T&>(x));
}

/// Reads the fields of `x` from `r`; the caller checks for unknown keys.
template <class T> void read_fields(object_reader& r, T& x) {
  detail::json_field_reader f{r};
  inspect(f, x);
}

/// Reads the fields of `x` from the object `j` at `path`; refuses unknown keys.
template <class T>
void read_fields(const nlohmann::json& j, const std::string& path, T& x) {
  object_reader r{j, path};
  read_fields(r, x);
  r.done();
}

/// Writes an event: its fields, and its kind as "type", the name of its topic.
template <class Event> void write_event(nlohmann::json& j, const Event& x) {
  write_fields(j, x);
  j["type"] = name_of(topic_of(x));
}

/// Reads what write_event wrote; the "type" is `prefix` and a kind's name,
/// one of `choices`.
template <class Event>
void read_event(const nlohmann::json& j, const std::string& path, Event& x,
                const std::string& prefix, const std::string& choices) {
  object_reader r{j, path};
  std::string type;
  r.required("type", type);
  if (type.compare(0, prefix.size(), prefix) != 0 ||
      !from_string(type.substr(prefix.size()), x.kind))
    throw json_error(r.path_of("type"),
                     "expected " + prefix + "<" + choices + ">, got \"" + type + "\"");
  read_fields(r, x);
  r.done();
}

} // namespace parley::messages

/// Defines `to_json` and `read` of `type` (declared in messages/json.hpp) by
/// its field list alone.
#define PARLEY_JSON_FROM_FIELDS(type)                                                  \
  void to_json(nlohmann::json& j, const type& x) {                                     \
    write_fields(j, x);                                                                \
  }                                                                                    \
  void read(const nlohmann::json& j, const std::string& path, type& x) {               \
    read_fields(j, path, x);                                                           \
  }

/// Defines `to_json` and `read` of the enum `type` (declared in
/// messages/json.hpp): written as its name, not as CAF's integer; `choices`
/// lists the names in the error of a bad one.
#define PARLEY_ENUM_JSON(type, choices)                                                \
  void to_json(nlohmann::json& j, const type& x) {                                     \
    j = to_string(x);                                                                  \
  }                                                                                    \
  void read(const nlohmann::json& j, const std::string& path, type& x) {               \
    read_enum(j, path, x, choices);                                                    \
  }
