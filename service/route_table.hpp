#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace parley::service {

struct exchange;

/// Who may ask a route, and when. Every route of one path has the same.
struct route_rules {
  /// Needs `Authorization: Bearer TOKEN` when serve has a token (bearer.hpp).
  bool token;
  /// May be asked on the health slot of a full server (admission.hpp).
  bool health_slot;
  /// Answered 503 E030 (Retry-After) until serve has recovered its store.
  bool after_recovery;
};

/// One route of `parley serve`, declared once in route_table.cpp's table:
/// the dispatch (routes.hpp), the server's token and health-slot checks
/// (server.hpp) and the metrics' route labels (metrics_route.hpp) all come
/// from it, and tests/unit/service/route_table_test.cpp holds it to
/// docs/openapi.json.
struct route {
  /// "GET", "POST" or "DELETE" (the server answers HEAD as GET).
  std::string_view method;
  /// The path as docs/openapi.json writes it; a `{name}` segment takes any
  /// one segment of a request's path, the route's parameter.
  std::string_view pattern;
  /// Answers the request; its parameters are in `x.params`.
  void (*handle)(exchange& x);
  route_rules rules;
  /// The `route` label of the requests' metrics (docs/metrics.md), when it
  /// is not `pattern` itself.
  std::string_view other_label = {};

  /// The `route` label of the requests' metrics.
  constexpr std::string_view label() const {
    return other_label.empty() ? pattern : other_label;
  }
};

/// The most `{name}` segments a pattern has.
inline constexpr std::size_t max_route_params = 1;

/// The raw values of a path's `{name}` segments, in order.
using route_params = std::array<std::string_view, max_route_params>;

/// A request's method and path matched against the table.
struct route_match {
  /// The first route of the path, whatever its method; null when no route
  /// has the path.
  const route* path = nullptr;
  /// The route of the path and the method; null when there is none.
  const route* found = nullptr;
  /// The path's parameters: views into the target, not percent-decoded.
  route_params params{};
};

/// Matches `method` and the path of `target` (before any `?`; one trailing
/// '/' ignored) against the table. Pure; allocates nothing.
route_match match_route(std::string_view method, std::string_view target) noexcept;

/// The rules of the routes of `target`'s path; a path no route has needs the
/// token and may not be asked on the health slot.
route_rules rules_of(std::string_view target) noexcept;

/// The methods of the routes of `path`'s path, as `Allow` lists them
/// ("GET, POST"), in the table's order.
std::string allowed_methods(const route& path);

/// The routes, in the table's order.
struct route_list {
  const route* first;
  std::size_t size;

  const route* begin() const noexcept { return first; }
  const route* end() const noexcept { return first + size; }
};

/// Every route of the table.
route_list all_routes() noexcept;

/// The number of route labels requests are counted by: the table's, then
/// "other" for every path no route has. A bounded label set, never the raw
/// path.
std::size_t route_count() noexcept;

/// The label numbered `i` (< route_count()), e.g.
/// "/api/v1/negotiations/{id}/messages".
std::string_view route_name(std::size_t i) noexcept;

/// The number of the label of `target`'s path (match_route), "other"'s
/// (route_count() - 1) when no route has it.
std::size_t route_of(std::string_view target) noexcept;

} // namespace parley::service
