#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "actors/metrics/instruments.hpp"
#include "messages/topic.hpp"

namespace parley::actors::metrics {

/// How a negotiation ended (its terminal status:
/// docs/protocols/bilateral.md, "States and transitions").
enum class negotiation_outcome : std::uint8_t { agreed, rejected, expired };

constexpr std::size_t negotiation_outcome_count = 3;

/// "agreed", "rejected" or "expired": the `outcome` label.
const char* name_of(negotiation_outcome x);

/// How a channel ended (its terminal status:
/// docs/protocols/channels.md, "States and transitions").
enum class channel_outcome : std::uint8_t { finalized, force_finalized, failed };

constexpr std::size_t channel_outcome_count = 3;

/// "finalized", "force_finalized" or "failed": the `status` label.
const char* name_of(channel_outcome x);

/// Bilateral negotiations, from their lifecycle events.
struct negotiation_metrics {
  counter started;
  /// Open negotiations this process re-spawned from the store at start.
  counter resumed;
  std::array<counter, negotiation_outcome_count> ended;
  /// Rounds of an ended negotiation.
  histogram rounds{{1, 2, 3, 4, 5, 6, 8, 10, 15, 20}};
  /// From the record's created_at to the terminal event, in milliseconds.
  histogram duration_ms{
      {1, 5, 10, 50, 100, 500, 1000, 5000, 10000, 30000, 60000, 120000, 300000}};
  /// Of a scored negotiation (docs/outcomes.md, "Scores of live
  /// negotiations"): each party's utility (initiator, responder) and the
  /// distance to the Nash point, in thousandths.
  std::array<histogram, 2> utility_milli{
      histogram{{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000}},
      histogram{{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000}}};
  histogram nash_distance_milli{{50, 100, 200, 300, 500, 750, 1000, 1500}};

  /// Started or resumed and not ended yet (never below zero: an ended
  /// negotiation may be counted a moment before its start is).
  std::int64_t open() const noexcept;
};

/// The demands and channels (docs/protocols/channels.md), from the "towow.*" events.
struct channel_metrics {
  counter demands;
  counter created;
  /// Open channels this process resumed from the store at start.
  counter resumed;
  std::array<counter, channel_outcome_count> ended;
  /// The round a channel ended in.
  histogram rounds{{1, 2, 3, 4, 5}};
  /// From channel.created to the final event, in milliseconds (channels
  /// created by this process only).
  histogram duration_ms{
      {10, 50, 100, 500, 1000, 5000, 10000, 30000, 60000, 120000, 300000, 600000}};

  std::int64_t open() const noexcept;
};

/// The LLM clients' calls (actors/llm/client.hpp), over all providers.
struct llm_metrics {
  /// Calls answered, failed ones included.
  counter calls;
  /// Calls answered with E003 (unavailable, HTTP error, circuit open).
  counter unavailable;
  /// Calls answered with E004 (timeout).
  counter timeouts;
  /// Calls refused at once because the circuit was open (also in
  /// `unavailable`).
  counter circuit_rejected;
  /// From a call's arrival to its answer, in milliseconds of the client's
  /// clock.
  histogram latency_ms{{10, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000}};
  /// How many clients' circuit breakers are closed, open and half open (as
  /// of each client's last call), indexed by the breaker's state.
  std::array<gauge, 3> breakers;
};

/// The store writer's group commits (actors/store/writer.hpp).
struct store_metrics {
  counter commits;
  /// Transactions that failed (the batch is kept and written again).
  counter failures;
  /// One transaction, in microseconds.
  histogram commit_us{exponential_bounds(100, 2, 16)};
  /// Rows one transaction writes: negotiation writes and channel events.
  histogram batch_rows{exponential_bounds(1, 2, 15)};
};

/// HTTP requests by route label and status (service/route_table.hpp
/// numbers the labels, at least one); a status outside 100..599 counts as
/// the nearer of the two.
class http_metrics {
public:
  explicit http_metrics(std::size_t routes);

  void count(std::size_t route, unsigned status) noexcept;

  std::uint64_t requests(std::size_t route, unsigned status) const noexcept;

  std::size_t routes() const noexcept { return routes_; }

  static constexpr unsigned first_status = 100;
  static constexpr unsigned last_status = 599;

  /// From a request's arrival at the routes to its answer, in microseconds.
  histogram duration_us{exponential_bounds(100, 2, 17)};

private:
  std::size_t index(std::size_t route, unsigned status) const noexcept;

  std::size_t routes_;
  std::unique_ptr<counter[]> requests_;
};

/// The HTTP server's event streams (service/server.hpp), asked at
/// scrape time. Set once, before the server starts, by whoever owns it
/// (service/api_service.cpp); unset: no stream families.
struct stream_metrics {
  /// Streams open now.
  std::function<std::size_t()> open;
  /// Streams closed because their client did not keep up.
  std::function<std::size_t()> dropped;
};

/// A cluster's node (`parley serve --cluster`, docs/cluster.md): the
/// membership's thread sets the gauges at each heartbeat and counts its
/// take-overs; the gateway counts the moves it forwards. Exported only once
/// `joined` is set.
struct cluster_metrics {
  std::atomic<bool> joined{false};
  /// Members of the cluster that read live, this node included, and what
  /// this node owns, as of its last heartbeat.
  gauge live_members;
  gauge owned_negotiations;
  gauge owned_channels;
  /// Dead members this node took over, and their open negotiations and
  /// channels it took with them (with the unowned ones at its join).
  counter takeovers;
  counter taken_negotiations;
  counter taken_channels;
  /// Moves sent to the node that runs their negotiation, and those of them
  /// answered E030 because that node could not be reached.
  counter forwarded;
  counter forward_failures;
  /// Moves of negotiations another node runs whose node the store was asked
  /// for (the owner cache did not know it: docs/cluster.md, "Any node
  /// answers").
  counter owner_lookups;
  /// Rooms this node's open negotiations run in, as of its last heartbeat.
  gauge owned_rooms;
  /// The cluster's events (cluster/event_exchange.hpp): the other live
  /// members this node is connected to for them; this node's events they
  /// acknowledged (one per event and peer); those dropped for a peer that did
  /// not keep up or was lost; the other nodes' events shown on this node's
  /// streams; and those that came again and were not shown twice.
  gauge event_peers;
  counter events_sent;
  counter events_dropped;
  counter events_received;
  counter events_duplicates;
};

/// Every instrument of one `parley serve`: written by the metrics actor
/// (events), the store writer, the LLM clients and the HTTP routes, each
/// through a shared_ptr aliasing its part; read at scrape time. Topic
/// counts are indexed by messages::topic.
struct node_metrics {
  explicit node_metrics(std::size_t http_routes) : http(http_routes) {}

  negotiation_metrics negotiations;
  channel_metrics channels;
  /// Events the metrics actor heard, by topic (ballots and auctions are
  /// counted here: negotiation.propose / .result, auction.bid / .result).
  std::array<counter, messages::topic_count> events;
  llm_metrics llm;
  store_metrics store;
  http_metrics http;
  stream_metrics streams;
  cluster_metrics cluster;
};

} // namespace parley::actors::metrics
