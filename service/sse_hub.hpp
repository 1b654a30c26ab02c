#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages/fwd.hpp"
#include "service/message.hpp"
#include "service/sse_rules.hpp"

namespace parley::service {

/// The event streams' hub: every event of the bus (fed by the actor of
/// sse_feed.hpp) is serialized once per stream kind into a frame whose
/// bytes every stream it goes to shares, kept for replay, and pushed to the
/// streams that want it. Two kinds of stream: the global one
/// (`GET /api/v1/events/stream`, filtered by sse_filter, ids = the hub's
/// sequence number) and a demand's (`GET
/// /api/v1/events/negotiations/{demand_id}/stream`: the channel events of
/// the demand's channels, ids = the event's position in the demand's
/// sequence). A stream opened with an id resumes after it: the frames kept
/// after it, then live, with no gap or duplicate (one lock orders the
/// replay and the events); when some of them are no longer kept, a reset
/// frame comes first (sse_rules.hpp). Pushing never blocks (event_stream);
/// a stream that closed is let go at its next event.
class sse_hub {
public:
  struct options {
    /// Frames the global stream keeps for replay, and (as many again) the
    /// demands' streams.
    std::size_t replay_events = 10000;
    /// Demands whose sequence is remembered.
    std::size_t max_demands = 100000;
  };

  /// Hears each event of this node's bus as the streams show it (its keys,
  /// time and payload), after the streams had it: a cluster's node sends it
  /// on to the other nodes (cluster/event_exchange.hpp).
  using local_listener = std::function<void(const event_keys& keys, std::int64_t at_ms,
                                            const std::string& payload)>;

  explicit sse_hub(options opts);

  /// Publishes one event of the bus.
  void publish(const messages::negotiation_event& x);
  void publish(const messages::problem_event& x);
  void publish(const messages::agent_event& x);
  void publish(const messages::ballot_event& x);
  void publish(const messages::auction_event& x);
  void publish(const messages::channel_event& x);

  /// Publishes an event of another node of the cluster, `node_id`, as that
  /// node's streams showed it. Never heard by the local listener: an event
  /// of another node is not sent on.
  void publish_remote(const std::string& node_id, event_keys keys, std::int64_t at_ms,
                      const std::string& payload);

  /// Makes this hub a cluster node's (`serve --cluster`, docs/cluster.md):
  /// every frame from now on names its node (`"node"`, beside `"payload"`),
  /// `node_id` for this node's events, and `local` hears this node's
  /// events. Until then (and on a single node) frames name no node.
  void share(std::string node_id, local_listener local);

  /// Called once, at the first global stream's subscription (before it is
  /// added): the feed then subscribes to the topics only the global stream
  /// shows. Until then the hub hears channel events only (the demands'
  /// streams replay from their first event), and producers build no other
  /// event for it: serving costs a load test nothing while nobody watches.
  void on_first_global(std::function<void()> f);

  /// Runs the first global stream's callback now, if it did not run yet: a
  /// cluster's node hears every topic from its start, since the other
  /// nodes' streams show its events.
  void start_global();

  /// Adds a global stream; with `resume`, first replays what it missed
  /// after `after` (kept since the first global stream came).
  void subscribe(sse_filter filter, bool resume, std::uint64_t after,
                 std::shared_ptr<event_stream> stream);

  /// Adds a stream of `demand_id`'s events, replaying those after `after`
  /// first (0: all of them).
  void subscribe_demand(const std::string& demand_id, std::uint64_t after,
                        std::shared_ptr<event_stream> stream);

  /// Streams subscribed now (one closed since is counted until its next
  /// event or the next subscription).
  std::size_t clients() const;

private:
  struct global_stream {
    sse_filter filter;
    std::shared_ptr<event_stream> stream;
  };

  /// Frames the event (its payload serialized once) of node `node_id`
  /// (empty: no node named) and pushes it.
  void publish(event_keys keys, std::int64_t at_ms, const std::string& payload,
               const std::string& node_id);

  /// Publishes an event of this node's bus, then tells the local listener.
  void publish_local(event_keys keys, std::int64_t at_ms, const std::string& payload);

  /// Pushes `r` (behind a reset frame when it has a gap) to `stream`.
  void replay_to(const replay& r, std::uint64_t after, event_stream& stream) const;

  /// Lets go of the streams that closed.
  void sweep();

  /// What `share` set.
  struct sharing {
    std::string node_id;
    local_listener local;
  };

  mutable std::mutex mtx_;
  std::shared_ptr<const sharing> sharing_;
  std::function<void()> first_global_;
  bool global_started_ = false;
  std::uint64_t sequence_ = 0;
  /// The newest event's time (what a reset frame says; before any event,
  /// the time it is sent).
  std::string last_timestamp_;
  replay_window window_;
  demand_logs demands_;
  std::vector<global_stream> global_;
  std::unordered_map<std::string, std::vector<std::shared_ptr<event_stream>>>
      by_demand_;
  std::size_t demand_streams_ = 0;
};

} // namespace parley::service
