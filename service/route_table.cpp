#include "service/route_table.hpp"

#include <iterator>

#include "service/api_routes.hpp"
#include "service/channel_routes.hpp"
#include "service/node_routes.hpp"
#include "service/sse_routes.hpp"

namespace parley::service {

namespace {

/// Health checks: no token, on the health slot too, and while recovering.
constexpr route_rules probe{false, true, false};
/// The dashboard's files: no token (the page asks for it), while recovering
/// too.
constexpr route_rules page{false, false, false};
/// The metrics: the token, while recovering too.
constexpr route_rules scrape{true, false, false};
/// `/api/v1`: the token, once the store is recovered (an open negotiation
/// may not be back before).
constexpr route_rules api{true, false, true};

/// Every route of `parley serve` (docs/api.md, docs/openapi.json), matched
/// in this order. Within a path, the order of its methods is `Allow`'s.
constexpr route table[] = {
    // method, path, handler, rules[, metrics label when not the path]
    {"GET", "/healthz", healthz, probe},
    {"GET", "/readyz", readyz, probe},
    {"GET", "/metrics", metrics_page, scrape},
    {"GET", "/api/v1/agents", list_agents, api},
    {"POST", "/api/v1/agents", add_agent, api},
    {"GET", "/api/v1/agents/{id}", get_agent, api},
    {"DELETE", "/api/v1/agents/{id}", delete_agent, api},
    {"GET", "/api/v1/agents/{id}/turns", agent_turns, api},
    {"GET", "/api/v1/agents/{id}/inbox", agent_inbox, api},
    {"POST", "/api/v1/rooms", add_room, api},
    {"GET", "/api/v1/rooms/{id}", get_room, api},
    {"GET", "/api/v1/negotiations", list_negotiations, api},
    {"POST", "/api/v1/negotiations", start_negotiation, api},
    {"GET", "/api/v1/negotiations/{id}", get_negotiation, api},
    {"POST", "/api/v1/negotiations/{id}/messages", post_move, api},
    {"GET", "/api/v1/stats", stats, api},
    {"GET", "/api/v1/cluster", cluster_members, api},
    {"POST", "/api/v1/maintenance/expire", expire, api},
    {"POST", "/api/v1/demand/submit", submit_demand, api},
    {"GET", "/api/v1/demands/{id}", get_demand, api},
    {"GET", "/api/v1/channels/{id}", get_channel, api},
    {"POST", "/api/v1/channels/{id}/messages", post_channel_message, api},
    {"GET", "/api/v1/events/stream", global_stream, api},
    {"GET", "/api/v1/events/negotiations/{demand_id}/stream", demand_stream, api,
     "/api/v1/events/negotiations/{id}/stream"},
    {"GET", "/", dashboard_page, page},
    {"GET", "/assets/{file}", dashboard_asset, page, "/assets/*"},
};

constexpr std::size_t row_count = std::size(table);

constexpr bool is_param(std::string_view segment) {
  return segment.size() >= 2 && segment.front() == '{' && segment.back() == '}';
}

/// The segment of `path` that starts at `at` (just after a '/'); moves `at`
/// past it and the '/' after it, so past the end after the last segment.
constexpr std::string_view next_segment(std::string_view path, std::size_t& at) {
  auto end = path.find('/', at);
  if (end == std::string_view::npos)
    end = path.size();
  auto segment = path.substr(at, end - at);
  at = end + 1;
  return segment;
}

/// Whether `path` is one of `pattern`'s; its parameters go to `params`
/// then.
constexpr bool matches(std::string_view pattern, std::string_view path,
                       route_params& params) {
  route_params found{};
  std::size_t n = 0;
  std::size_t p = 1;
  std::size_t q = 1;
  while (p <= pattern.size() && q <= path.size()) {
    auto want = next_segment(pattern, p);
    auto got = next_segment(path, q);
    if (is_param(want)) {
      if (n < found.size())
        found[n++] = got;
    } else if (want != got) {
      return false;
    }
  }
  if (p <= pattern.size() || q <= path.size())
    return false;
  params = found;
  return true;
}

/// Whether some path is both `a`'s and `b`'s.
constexpr bool overlap(std::string_view a, std::string_view b) {
  std::size_t p = 1;
  std::size_t q = 1;
  while (p <= a.size() && q <= b.size()) {
    auto x = next_segment(a, p);
    auto y = next_segment(b, q);
    if (!is_param(x) && !is_param(y) && x != y)
      return false;
  }
  return p > a.size() && q > b.size();
}

constexpr bool same(const route_rules& a, const route_rules& b) {
  return a.token == b.token && a.health_slot == b.health_slot &&
         a.after_recovery == b.after_recovery;
}

constexpr std::size_t params_in(std::string_view pattern) {
  std::size_t n = 0;
  std::size_t at = 1;
  while (at <= pattern.size())
    n += is_param(next_segment(pattern, at)) ? 1 : 0;
  return n;
}

// What the matcher relies on, checked as the table is compiled.

constexpr bool each_route_once() {
  for (std::size_t i = 0; i < row_count; ++i)
    for (auto j = i + 1; j < row_count; ++j)
      if (table[i].method == table[j].method && table[i].pattern == table[j].pattern)
        return false;
  return true;
}
static_assert(each_route_once(), "a method and pattern appear twice in the table");

constexpr bool paths_together() {
  for (std::size_t i = 0; i < row_count; ++i)
    for (auto j = i + 1; j < row_count; ++j)
      if (table[i].pattern == table[j].pattern &&
          (table[j - 1].pattern != table[j].pattern ||
           !same(table[i].rules, table[j].rules) || table[i].label() != table[j].label()))
        return false;
  return true;
}
static_assert(paths_together(), "the routes of a path are not adjacent, or differ "
                                "in their rules or label");

constexpr bool paths_apart() {
  for (std::size_t i = 0; i < row_count; ++i)
    for (auto j = i + 1; j < row_count; ++j)
      if (table[i].pattern != table[j].pattern &&
          overlap(table[i].pattern, table[j].pattern))
        return false;
  return true;
}
static_assert(paths_apart(), "a path matches two patterns of the table");

constexpr bool params_bounded() {
  for (const auto& r : table)
    if (r.pattern.empty() || r.pattern.front() != '/' ||
        params_in(r.pattern) > max_route_params)
      return false;
  return true;
}
static_assert(params_bounded(), "a pattern does not start with '/' or has more than "
                                "max_route_params parameters");

/// Where the routes of each row's path end: the matcher tries each path
/// once, then its methods.
constexpr std::array<std::size_t, row_count> path_ends() {
  std::array<std::size_t, row_count> ends{};
  for (std::size_t i = 0; i < row_count; ++i) {
    auto j = i;
    while (j < row_count && table[j].pattern == table[i].pattern)
      ++j;
    ends[i] = j;
  }
  return ends;
}
constexpr auto path_end = path_ends();

/// The labels, each once in the table's order, then "other"; and each
/// row's.
struct label_set {
  std::array<std::string_view, row_count + 1> names{};
  std::size_t count = 0;
  std::array<std::size_t, row_count> of_row{};
};

constexpr label_set index_labels() {
  label_set x{};
  for (std::size_t i = 0; i < row_count; ++i) {
    std::size_t j = 0;
    while (j < x.count && x.names[j] != table[i].label())
      ++j;
    if (j == x.count)
      x.names[x.count++] = table[i].label();
    x.of_row[i] = j;
  }
  x.names[x.count++] = "other";
  return x;
}
constexpr label_set labels = index_labels();

/// The path of `target`: before any `?`, without one trailing '/' (not the
/// root's).
std::string_view path_of(std::string_view target) {
  auto path = target.substr(0, target.find('?'));
  if (path.size() > 2 && path.back() == '/')
    path.remove_suffix(1);
  return path;
}

} // namespace

route_match match_route(std::string_view method, std::string_view target) noexcept {
  auto path = path_of(target);
  route_match m;
  for (std::size_t i = 0; i < row_count; i = path_end[i]) {
    if (!matches(table[i].pattern, path, m.params))
      continue;
    m.path = &table[i];
    for (auto j = i; j < path_end[i]; ++j)
      if (table[j].method == method)
        m.found = &table[j];
    break;
  }
  return m;
}

route_rules rules_of(std::string_view target) noexcept {
  auto m = match_route({}, target);
  return m.path ? m.path->rules : route_rules{true, false, false};
}

std::string allowed_methods(const route& path) {
  auto first = static_cast<std::size_t>(&path - table);
  while (first > 0 && table[first - 1].pattern == path.pattern)
    --first;
  std::string allow;
  for (auto i = first; i < path_end[first]; ++i)
    allow.append(i == first ? "" : ", ").append(table[i].method);
  return allow;
}

route_list all_routes() noexcept {
  return {table, row_count};
}

std::size_t route_count() noexcept {
  return labels.count;
}

std::string_view route_name(std::size_t i) noexcept {
  return labels.names[i < labels.count ? i : labels.count - 1];
}

std::size_t route_of(std::string_view target) noexcept {
  auto m = match_route({}, target);
  return m.path ? labels.of_row[static_cast<std::size_t>(m.path - table)]
                : labels.count - 1;
}

} // namespace parley::service
