#include "actors/metrics/node_metrics.hpp"

#include <algorithm>

namespace parley::actors::metrics {

namespace {

template <std::size_t N>
std::int64_t open_of(const counter& started, const counter& resumed,
                     const std::array<counter, N>& ended) {
  std::uint64_t done = 0;
  for (const auto& x : ended)
    done += x.value();
  auto opened = started.value() + resumed.value();
  return opened > done ? static_cast<std::int64_t>(opened - done) : 0;
}

} // namespace

const char* name_of(negotiation_outcome x) {
  switch (x) {
  case negotiation_outcome::agreed:
    return "agreed";
  case negotiation_outcome::rejected:
    return "rejected";
  default:
    return "expired";
  }
}

const char* name_of(channel_outcome x) {
  switch (x) {
  case channel_outcome::finalized:
    return "finalized";
  case channel_outcome::force_finalized:
    return "force_finalized";
  default:
    return "failed";
  }
}

std::int64_t negotiation_metrics::open() const noexcept {
  return open_of(started, resumed, ended);
}

std::int64_t channel_metrics::open() const noexcept {
  return open_of(created, resumed, ended);
}

http_metrics::http_metrics(std::size_t routes)
    : routes_(routes), requests_(std::make_unique<counter[]>(
                           routes * (last_status - first_status + 1))) {}

std::size_t http_metrics::index(std::size_t route, unsigned status) const noexcept {
  auto s = std::clamp(status, first_status, last_status) - first_status;
  return std::min(route, routes_ - 1) * (last_status - first_status + 1) + s;
}

void http_metrics::count(std::size_t route, unsigned status) noexcept {
  requests_[index(route, status)].add();
}

std::uint64_t http_metrics::requests(std::size_t route,
                                     unsigned status) const noexcept {
  return requests_[index(route, status)].value();
}

} // namespace parley::actors::metrics
