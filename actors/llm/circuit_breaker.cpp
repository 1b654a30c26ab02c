#include "actors/llm/circuit_breaker.hpp"

namespace parley::actors::llm {

bool circuit_breaker::allow(std::int64_t now_ms) {
  switch (state_) {
  case state::closed:
    return true;
  case state::open:
    if (now_ms - opened_at_ms_ < open_ms_)
      return false;
    state_ = state::half_open;
    trial_in_flight_ = true;
    return true;
  case state::half_open:
    if (trial_in_flight_)
      return false;
    trial_in_flight_ = true;
    return true;
  }
  return false;
}

void circuit_breaker::on_success() {
  state_ = state::closed;
  failures_ = 0;
  trial_in_flight_ = false;
}

void circuit_breaker::on_failure(std::int64_t now_ms) {
  trial_in_flight_ = false;
  if (state_ == state::half_open) {
    state_ = state::open;
    opened_at_ms_ = now_ms;
    return;
  }
  if (state_ == state::open)
    return; // a call started before the breaker opened
  if (++failures_ >= threshold_) {
    state_ = state::open;
    opened_at_ms_ = now_ms;
  }
}

} // namespace parley::actors::llm
