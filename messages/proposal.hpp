#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"

#include "messages/fields.hpp"

namespace parley::messages {

/// A free-form JSON object carried as compact JSON text, so that it survives
/// the wire (CAF 0.17 cannot serialize nlohmann::json) and costs nothing when
/// empty. Only a JSON object is valid; the JSON mapping checks that.
struct json_object {
  std::string text = "{}";

  friend bool operator==(const json_object& x, const json_object& y) {
    return x.text == y.text;
  }
  friend bool operator!=(const json_object& x, const json_object& y) {
    return !(x == y);
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, json_object& x) {
  return f(caf::meta::type_name("json_object"), x.text);
}

/// The terms one side offers, with a money amount
/// (docs/protocols/bilateral.md, "Proposals").
struct proposal {
  /// Money in minor units (pence, cents): never a floating-point number.
  std::int64_t amount = 0;
  /// ISO 4217 code, three upper-case letters.
  std::string currency = "GBP";
  bool escrow = false;
  std::string description;
  json_object terms;

  friend bool operator==(const proposal& x, const proposal& y) {
    return x.amount == y.amount && x.currency == y.currency && x.escrow == y.escrow &&
           x.description == y.description && x.terms == y.terms;
  }
  friend bool operator!=(const proposal& x, const proposal& y) { return !(x == y); }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, proposal& x) {
  return f(caf::meta::type_name("proposal"), field("amount", x.amount),
           optional_field("currency", x.currency), optional_field("escrow", x.escrow),
           optional_field("description", x.description),
           optional_field("terms", x.terms));
}

/// Returns true if `code` has the shape of an ISO 4217 code (three A–Z).
bool is_currency_code(const std::string& code);

/// Returns an empty string if `x` is a valid proposal, otherwise why it is not.
std::string validate(const proposal& x);

} // namespace parley::messages
