#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"

#include "messages/fields.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::messages {

/// The numbers that govern a negotiation; they travel with a room so that a
/// room on another node applies the caller's configuration.
struct negotiation_settings {
  /// 5 rounds, within 1..20 (docs/protocols/bilateral.md, "Settings and limits").
  std::int32_t max_rounds = 5;
  /// 30 s without a reply expires the negotiation.
  std::int64_t round_timeout_ms = 30000;
  /// 2 min in all.
  std::int64_t total_timeout_ms = 120000;
  messages::incentive_split incentive_split;

  friend bool operator==(const negotiation_settings& x, const negotiation_settings& y) {
    return x.max_rounds == y.max_rounds && x.round_timeout_ms == y.round_timeout_ms &&
           x.total_timeout_ms == y.total_timeout_ms &&
           x.incentive_split == y.incentive_split;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_settings& x) {
  return f(caf::meta::type_name("negotiation_settings"),
           optional_field("max_rounds", x.max_rounds),
           optional_field("round_timeout_ms", x.round_timeout_ms),
           optional_field("total_timeout_ms", x.total_timeout_ms),
           optional_field("incentive_split", x.incentive_split));
}

/// Returns an empty string if `x` is valid, otherwise the first reason why not,
/// naming the field (e.g. "max_rounds must be within 1..20, got 25").
std::string validate(const negotiation_settings& x);

} // namespace parley::messages
