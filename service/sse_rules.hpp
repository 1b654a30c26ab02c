#pragma once

// The event hub's pure rules (sse_hub.hpp): which events a stream wants,
// how an event becomes a Server-Sent-Event frame, and what is kept for a
// stream that resumes (`Last-Event-ID`).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages/topic.hpp"
#include "service/message.hpp"

namespace parley::service {

/// What a stream's filters look at of an event; an id the event does not
/// carry is empty.
struct event_keys {
  messages::topic topic = messages::topic::negotiation_started;
  std::string negotiation_id;
  std::string channel_id;
  std::string demand_id;
};

/// Which events the global stream (`GET /api/v1/events/stream`) sends:
/// its topics, and the ids an event must carry (empty: any).
struct sse_filter {
  messages::topic_set topics = messages::topic_set::all();
  std::string negotiation_id;
  std::string channel_id;
  std::string demand_id;
};

/// Whether `filter` lets an event with `keys` through.
bool matches(const sse_filter& filter, const event_keys& keys);

/// The topics of one name of the `topics` parameter: a group ("negotiation":
/// the lifecycle events; "channel": the towow.* events; "ballot",
/// "auction", "agent", "error" or "problem": errors and warnings), else a
/// topic or pattern as the bus reads it ("towow.offer.*"); empty when it
/// names nothing.
messages::topic_set topic_group(const std::string& name);

/// One event as a frame (docs/api.md, "Event streams (Server-Sent Events)"): `id:`,
/// `event:` and `data:` lines, the data being
/// `{"event_id","event_type","timestamp","payload"}` with the id as a decimal string
/// and `payload_json` (one line of JSON) as it is; with a `node_id` (a cluster's
/// node, docs/cluster.md), `"node"` too, before `"payload"`: the node whose
/// event it is.
std::string frame_text(std::uint64_t id, const std::string& event_type,
                       const std::string& timestamp, const std::string& payload_json,
                       const std::string& node_id = {});

/// What a stream resuming after an id the hub no longer keeps gets first
/// (then every event it still keeps): an `event: reset` frame without an
/// `id:` line, saying the events after `after` and before `first_kept` are
/// gone (0: none is kept); the client should reload the state (the REST
/// API) before it trusts the stream again.
std::string reset_frame_text(std::uint64_t after, std::uint64_t first_kept,
                             const std::string& timestamp);

/// A frame as the hub keeps it: its id in its stream, what filters look at,
/// and its bytes, shared by every stream it goes to.
struct kept_frame {
  std::uint64_t id = 0;
  event_keys keys;
  shared_bytes bytes;
};

using frame_ptr = std::shared_ptr<const kept_frame>;

/// What a stream resuming after an id gets: whether some events after it
/// are no longer kept (a gap), and the frames kept after it, in order.
struct replay {
  bool gap = false;
  /// The first id kept (0 when none): where the stream resumes after a gap.
  std::uint64_t first_kept = 0;
  std::vector<frame_ptr> frames;
};

/// The global stream's most recent frames, at most `capacity`.
class replay_window {
public:
  explicit replay_window(std::size_t capacity);

  /// Keeps `x` (its id above every id kept), forgetting the oldest frame
  /// beyond the capacity.
  void add(frame_ptr x);

  /// The frames after `after` that `filter` lets through; a gap when ids
  /// between `after` and the first id kept were forgotten.
  replay since(std::uint64_t after, const sse_filter& filter) const;

private:
  std::size_t capacity_;
  std::deque<frame_ptr> frames_;
  /// The id of the last frame ever added (0: none).
  std::uint64_t last_ = 0;
};

/// Each demand's own event sequence: its ids count 1, 2, ... per demand, and
/// its frames are kept for replay while all demands together keep at most
/// `capacity` frames (the oldest frames go first, whatever their demand)
/// and at most `max_demands` demands are remembered at all (then the least
/// recently active demand is forgotten: a later event of it starts at 1
/// again).
class demand_logs {
public:
  demand_logs(std::size_t capacity, std::size_t max_demands);

  /// The id the next event of `demand_id` gets.
  std::uint64_t next_id(const std::string& demand_id) const;

  /// Keeps `x`, the next event of `demand_id` (its id is `next_id`).
  void add(const std::string& demand_id, frame_ptr x);

  /// The frames of `demand_id` after `after`; a gap when some of them were
  /// forgotten.
  replay since(const std::string& demand_id, std::uint64_t after) const;

  /// Frames kept, over every demand.
  std::size_t size() const noexcept { return frames_; }

private:
  struct log {
    /// Tells this log from an earlier one of the same demand, forgotten.
    std::uint64_t serial = 0;
    /// Events this demand had.
    std::uint64_t count = 0;
    std::deque<frame_ptr> frames;
    std::list<std::string>::iterator recency;
  };

  /// Which log each frame kept went to, oldest first: frames are forgotten
  /// in this order.
  struct age {
    std::string demand_id;
    std::uint64_t serial = 0;
  };

  void forget_oldest_frame();

  std::size_t capacity_;
  std::size_t max_demands_;
  std::size_t frames_ = 0;
  std::uint64_t serials_ = 0;
  std::unordered_map<std::string, log> logs_;
  std::deque<age> ages_;
  /// Demand ids, the most recently active first.
  std::list<std::string> recency_;
};

/// Parses a `Last-Event-ID` (a decimal id); false when it is not one.
bool parse_event_id(const std::string& text, std::uint64_t& id);

} // namespace parley::service
