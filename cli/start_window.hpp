#pragma once

#include <cstddef>

namespace parley::cli {

/// Bounds how many negotiation starts are in flight (sent and not yet answered by a
/// `started`, a refusal or the end). A burst of 100k+ runnable actors makes CAF 0.17's
/// work stealing collapse
/// (docs/caf-notes.md, "Work stealing collapses under long queues"); a window of a few
/// hundred keeps the runnable set small and is fastest.
class start_window {
public:
  explicit start_window(std::size_t size) : size_(size > 0 ? size : 1) {}

  /// Whether one more start may go now.
  bool has_room() const noexcept { return in_flight_ < size_; }

  /// A start went out.
  void launched() noexcept { ++in_flight_; }

  /// A start in flight was answered.
  void settled() noexcept {
    if (in_flight_ > 0)
      --in_flight_;
  }

  std::size_t in_flight() const noexcept { return in_flight_; }

private:
  std::size_t size_;
  std::size_t in_flight_ = 0;
};

} // namespace parley::cli
