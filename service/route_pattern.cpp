#include "service/route_pattern.hpp"

#include <array>
#include <string_view>

namespace parley::service {

namespace {

constexpr std::array<const char*, 24> patterns{
    "/healthz",
    "/readyz",
    "/metrics",
    "/api/v1/agents",
    "/api/v1/agents/{id}",
    "/api/v1/agents/{id}/turns",
    "/api/v1/agents/{id}/inbox",
    "/api/v1/rooms",
    "/api/v1/rooms/{id}",
    "/api/v1/negotiations",
    "/api/v1/negotiations/{id}",
    "/api/v1/negotiations/{id}/messages",
    "/api/v1/stats",
    "/api/v1/maintenance/expire",
    "/api/v1/demand/submit",
    "/api/v1/demands/{id}",
    "/api/v1/channels/{id}",
    "/api/v1/channels/{id}/messages",
    "/api/v1/events/stream",
    "/api/v1/events/negotiations/{id}/stream",
    "/",
    "/index.html",
    "/assets/*",
    "other",
};

/// The next segment of `path` at `at` (just after a '/'); moves `at` past
/// it and its trailing '/', if any.
std::string_view next_segment(std::string_view path, std::size_t& at) {
  auto end = path.find('/', at);
  if (end == std::string_view::npos)
    end = path.size();
  auto segment = path.substr(at, end - at);
  at = end + 1;
  return segment;
}

bool matches(std::string_view pattern, std::string_view path) {
  if (pattern == "/" || path == "/")
    return pattern == path;
  std::size_t p = 1;
  std::size_t q = 1;
  while (p <= pattern.size() && q <= path.size()) {
    auto want = next_segment(pattern, p);
    auto got = next_segment(path, q);
    if (want == "*")
      return !got.empty();
    if (got.empty() || (want != "{id}" && want != got))
      return false;
  }
  return p > pattern.size() && q > path.size();
}

} // namespace

std::size_t route_count() noexcept {
  return patterns.size();
}

const char* route_name(std::size_t i) noexcept {
  return patterns[i < patterns.size() ? i : patterns.size() - 1];
}

std::size_t route_of(const std::string& target) noexcept {
  std::string_view path{target};
  path = path.substr(0, path.find('?'));
  if (path.size() > 1 && path.back() == '/')
    path.remove_suffix(1);
  for (std::size_t i = 0; i + 1 < patterns.size(); ++i)
    if (matches(patterns[i], path))
      return i;
  return patterns.size() - 1;
}

} // namespace parley::service
