#pragma once

// Named fields for a type's `inspect`, so that its field list is written once:
//
//   return f(caf::meta::type_name("proposal"), field("amount", x.amount),
//            optional_field("currency", x.currency), ...);
//
// CAF's inspectors (binary serializer and deserializer, stringification) and
// the compact codec see through a named field to its value, so the wire
// format does not change; the JSON mapping (messages/json_fields.hpp) also
// takes the name and how the field is read and written.

namespace parley::messages {

/// How a named field appears in JSON.
enum class json_presence {
  /// Always written; reading fails when it is missing.
  required,
  /// Always written (an absent caf::optional as null); when missing or null
  /// on reading, the value is left as it was.
  optional,
  /// As `optional`, but an absent caf::optional is not written at all.
  omitted_if_none,
  /// As `optional`, but a number or bool equal to zero (false) is not
  /// written.
  omitted_if_default,
  /// Not in the JSON field list: the type's JSON mapping writes and reads it
  /// itself (an event's kind is its "type" tag).
  hand_written,
};

/// A field of an inspected type with its JSON name.
template <class T> struct named_field {
  const char* name;
  T& value;
  json_presence presence;
};

template <class Inspector, class T>
typename Inspector::result_type inspect(Inspector& f, named_field<T>& x) {
  return f(x.value);
}

template <class T> named_field<T> field(const char* name, T& x) {
  return {name, x, json_presence::required};
}

template <class T> named_field<T> optional_field(const char* name, T& x) {
  return {name, x, json_presence::optional};
}

template <class T> named_field<T> omittable_field(const char* name, T& x) {
  return {name, x, json_presence::omitted_if_none};
}

template <class T> named_field<T> defaulted_field(const char* name, T& x) {
  return {name, x, json_presence::omitted_if_default};
}

template <class T> named_field<T> hand_written_field(const char* name, T& x) {
  return {name, x, json_presence::hand_written};
}

} // namespace parley::messages
