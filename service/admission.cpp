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

std::chrono::milliseconds accept_backoff::next() noexcept {
  auto now = pause_;
  pause_ = std::min(pause_ * 2, longest);
  return now;
}

} // namespace parley::service
