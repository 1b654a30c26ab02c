#include "service/admission.hpp"

#include <algorithm>

namespace parley::service {

admission::slot admission::admit() noexcept {
  if (open_ < max_) {
    ++open_;
    return slot::ordinary;
  }
  return admit_health();
}

admission::slot admission::admit_health() noexcept {
  health_busy_ = true;
  return slot::health;
}

void admission::release(slot x) noexcept {
  if (x == slot::health)
    health_busy_ = false;
  else if (open_ > 0)
    --open_;
}

bool is_health_path(std::string_view target) {
  auto path = target.substr(0, target.find('?'));
  return path == "/healthz" || path == "/readyz";
}

std::chrono::milliseconds accept_backoff::next() noexcept {
  auto now = pause_;
  pause_ = std::min(pause_ * 2, longest);
  return now;
}

} // namespace parley::service
