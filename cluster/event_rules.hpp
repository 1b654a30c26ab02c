#pragma once

// The pure rules of a cluster node's event exchange (event_exchange.hpp):
// what a node keeps for a peer that has not taken its events yet, and which
// events of other nodes it shows. No CAF, no clock.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "messages/cluster_event.hpp"

namespace parley::cluster {

/// The events a node has for one peer, oldest first, at most `limit` of them:
/// the first `in_flight()` were sent as one batch that the peer has not
/// acknowledged yet, the rest wait for the next batch. A peer that does not
/// keep up (paused, slow) loses its oldest waiting events, never makes the
/// node wait or grow.
class event_outbox {
public:
  using event_ptr = std::shared_ptr<const messages::cluster_event>;

  /// `limit` >= 1.
  explicit event_outbox(std::size_t limit);

  /// Queues `x`; when that makes more than `limit`, drops the oldest event
  /// not in flight (or, with every event in flight, `x` itself). Returns how
  /// many events it dropped (0 or 1).
  std::size_t push(event_ptr x);

  /// Whether a batch waits for its acknowledgement.
  bool busy() const noexcept { return in_flight_ > 0; }

  /// The next batch, at most `max` events from the oldest, now in flight;
  /// empty when one is in flight already or nothing waits.
  std::vector<messages::cluster_event> take(std::size_t max);

  /// The batch in flight arrived: it is let go.
  void acknowledged();

  /// The batch in flight may not have arrived (its connection was lost, or
  /// its acknowledgement did not come in time): it is sent again with the
  /// next batch (the receiver shows each event once: event_origins).
  void lost() noexcept { in_flight_ = 0; }

  /// Events kept, in flight or waiting.
  std::size_t size() const noexcept { return events_.size(); }

  std::size_t in_flight() const noexcept { return in_flight_; }

private:
  std::size_t limit_;
  std::size_t in_flight_ = 0;
  std::deque<event_ptr> events_;
};

/// What a node does with an event another node sent it.
enum class arrival {
  /// New: shown on this node's streams, and nowhere else.
  show,
  /// Its origin's sequence number was shown already (a batch sent again):
  /// dropped.
  duplicate,
  /// This node's own event come back: dropped (a node shows its own events
  /// once, from its own bus).
  own,
};

/// The sequences of other nodes' events a node has shown: for each origin
/// (a process's random stream id), the highest sequence number shown. An
/// origin sends its events in order, so a number not above it was shown
/// already (or dropped for good); a gap (events the origin dropped for this
/// node) is not waited for. At most `max_origins` origins are remembered:
/// the one heard from least recently is forgotten first.
class event_origins {
public:
  /// `own`: this node's stream id.
  event_origins(std::uint64_t own, std::size_t max_origins = 1024);

  /// What to do with event `sequence` of origin `stream`.
  arrival arrive(std::uint64_t stream, std::uint64_t sequence);

  std::size_t size() const noexcept { return last_.size(); }

private:
  struct seen {
    std::uint64_t sequence = 0;
    /// When it was last heard from (a count of arrivals).
    std::uint64_t heard = 0;
  };

  std::uint64_t own_;
  std::size_t max_origins_;
  std::uint64_t arrivals_ = 0;
  std::unordered_map<std::uint64_t, seen> last_;
};

} // namespace parley::cluster
