#include "service/stream_queue.hpp"

#include <utility>

namespace parley::service {

stream_queue::stream_queue(std::size_t max_bytes, wake_function wake)
    : max_bytes_(max_bytes), wake_(std::move(wake)) {}

bool stream_queue::push(shared_bytes frame) {
  std::lock_guard<std::mutex> guard{mtx_};
  if (closed_)
    return false;
  if (bytes_ + frame->size() > max_bytes_) {
    closed_ = true;
    dropped_ = true;
    queued_.clear();
    wake_(true);
    return false;
  }
  bytes_ += frame->size();
  queued_.push_back(std::move(frame));
  if (!writing_) {
    writing_ = true;
    wake_(false);
  }
  return true;
}

bool stream_queue::open() const noexcept {
  std::lock_guard<std::mutex> guard{mtx_};
  return !closed_;
}

std::vector<shared_bytes> stream_queue::take() {
  std::lock_guard<std::mutex> guard{mtx_};
  std::vector<shared_bytes> out;
  out.swap(queued_);
  writing_ = !out.empty() && !closed_;
  return out;
}

void stream_queue::written(std::size_t bytes) {
  std::lock_guard<std::mutex> guard{mtx_};
  bytes_ = bytes > bytes_ ? 0 : bytes_ - bytes;
}

bool stream_queue::close() {
  std::lock_guard<std::mutex> guard{mtx_};
  if (closed_)
    return false;
  closed_ = true;
  queued_.clear();
  return true;
}

bool stream_queue::dropped() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return dropped_;
}

} // namespace parley::service
