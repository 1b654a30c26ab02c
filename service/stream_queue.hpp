#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include "service/message.hpp"

namespace parley::service {

/// The queue of one event stream, between the threads that push frames and
/// the connection that writes them (server.cpp). Bounded by bytes: frames
/// queued or being written count until written; a push past the bound
/// closes the stream (the client is too slow) instead of growing memory or
/// slowing the pusher down. Never blocks beyond its own short lock.
class stream_queue : public event_stream {
public:
  /// What the writer is told, under the queue's lock (so that nothing is
  /// told once `close` returned): `wake(false)` when frames wait and no write
  /// is under way; `wake(true)` once when the queue went over its bound.
  using wake_function = std::function<void(bool overflow)>;

  stream_queue(std::size_t max_bytes, wake_function wake);

  bool push(shared_bytes frame) override;

  bool open() const noexcept override;

  /// The writer takes every frame queued, in order; empty when none is
  /// left, and then the next push wakes it again.
  std::vector<shared_bytes> take();

  /// The writer wrote `bytes` of what it took.
  void written(std::size_t bytes);

  /// Closes the stream: later pushes return false, the frames queued go.
  /// Returns false when it was closed already.
  bool close();

  /// Whether it closed because it went over its bound.
  bool dropped() const;

private:
  const std::size_t max_bytes_;
  wake_function wake_;
  mutable std::mutex mtx_;
  std::vector<shared_bytes> queued_;
  std::size_t bytes_ = 0;
  bool writing_ = false;
  bool closed_ = false;
  bool dropped_ = false;
};

} // namespace parley::service
