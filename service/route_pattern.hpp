#pragma once

#include <cstddef>
#include <string>

namespace parley::service {

/// The route patterns of `parley serve` that requests are counted by
/// (docs/api.md's route table, plus the live view's streams and dashboard
/// of issue 14): a bounded label set, never the raw path. The last one,
/// "other", takes every path no pattern matches.
std::size_t route_count() noexcept;

/// The pattern numbered `i` (< route_count()), e.g.
/// "/api/v1/negotiations/{id}/messages".
const char* route_name(std::size_t i) noexcept;

/// The number of the pattern `target` (a path, with or without a query)
/// matches: `{id}` matches one non-empty segment, a trailing `*` the rest.
/// Pure; a few string comparisons.
std::size_t route_of(const std::string& target) noexcept;

} // namespace parley::service
