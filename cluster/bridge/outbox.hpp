#pragma once

#include <chrono>
#include <cstddef>
#include <utility>

#include "caf/send.hpp"

#include "cluster/bridge/codec.hpp"
#include "messages/atoms.hpp"
#include "messages/bridge.hpp"

namespace parley::cluster::bridge {

/// The batch a bridge collects for the other side. The first message of a
/// batch arms a flush `flush_delay` later (one timer per batch): messages
/// that come in the meantime share its frame. Sending at once (a flush
/// message to itself) gave one message per frame on a caller whose agents
/// answer one by one: each frame costs both processes a system call and a
/// dispatch through the middleman.
class outbox {
public:
  /// Collects `x`; `self` flushes when asked (or now, when the batch is full).
  template <class Self, class Peer>
  void add(Self* self, const Peer& peer, messages::routed x) {
    pack(batch_, std::move(x));
    if (++size_ >= max_batch)
      flush(self, peer);
    else if (size_ == 1)
      self->delayed_send(self, flush_delay, messages::flush_atom::value);
  }

  /// Sends what was collected, if anything.
  template <class Self, class Peer> void flush(Self* self, const Peer& peer) {
    if (size_ == 0)
      return;
    self->send(peer, std::move(batch_));
    batch_ = messages::routed_batch{};
    size_ = 0;
  }

private:
  /// Messages per batch at most: bounds a frame and the wait for its end.
  static constexpr std::size_t max_batch = 2048;

  /// How long a message may wait for others to share its frame.
  static constexpr auto flush_delay = std::chrono::microseconds(200);

  messages::routed_batch batch_;
  /// Messages in `batch_`.
  std::size_t size_ = 0;
};

} // namespace parley::cluster::bridge
