#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "caf/actor.hpp"

#include "config/settings.hpp"
#include "messages/handles/event_exchange.hpp"
#include "messages/handles/gateway.hpp"
#include "messages/handles/store.hpp"

namespace parley::actors::gateway {
class placement_table;
}

namespace parley::runtime {
class world;
} // namespace parley::runtime

namespace parley::service {

class cluster_view;
class external_members;

/// What a node of a cluster (`parley serve --cluster`, docs/cluster.md) adds
/// to the service.
struct cluster_service {
  /// The members `GET /api/v1/cluster` answers.
  std::shared_ptr<const cluster_view> view;
  /// The middleman through which the gateway forwards a move to the node
  /// that runs its negotiation (actors/gateway/actor.hpp,
  /// `gateway_options::connector`); none: such moves are answered E030.
  caf::actor connector;
  /// With a connector: where openings in a pair's own room are placed
  /// (`gateway_options::placement`); none: on the node they reach.
  std::shared_ptr<const actors::gateway::placement_table> placement;
};

/// The HTTP API (docs/api.md) over a world: the gateway, the external channel
/// members, the event streams (their hub and its bus feed), the dashboard,
/// the routes and the server of service/. `parley serve` runs
/// one over its durable store; `parley run --serve` and `parley bench
/// --serve` run one over the run's world, so that the same API, streams and
/// page watch a simulation or a load test live.
class api_service {
public:
  /// Builds the service over `w` and `store` (both must outlive it) with
  /// `settings`' address, limits and `token` (empty: no authentication).
  /// Throws std::runtime_error, with error code E019, when `settings.host`
  /// is not a loopback address and there is no token. `cluster`: what a
  /// cluster's node adds (`serve --cluster`; none: `GET /api/v1/cluster` is
  /// 404 and the gateway runs as a single node's).
  api_service(runtime::world& w, actors::store_actor store,
              const config::serve_settings& settings, std::string token,
              cluster_service cluster = {});

  /// Stops the service if it still runs (`stop` with no grace).
  ~api_service();

  api_service(const api_service&) = delete;
  api_service& operator=(const api_service&) = delete;

  /// Binds and listens; returns the port. Throws std::runtime_error naming
  /// the address when it cannot listen.
  std::uint16_t start();

  /// The gateway the routes ask: `parley serve` asks it to recover.
  const actors::gateway_actor& gateway() const noexcept;

  /// The external channel members, by agent id: a cluster's node hands them
  /// the answers that other nodes forward (cluster/move_relay.hpp).
  std::shared_ptr<const external_members> channel_members() const noexcept;

  /// Shares the event streams with the other nodes of a cluster
  /// (docs/cluster.md, "The cluster's events"): from now on every frame
  /// names its node (`node_id` for this node's events), this node's events
  /// of every topic go to the returned exchange, which sends them to the
  /// other live members through `connector` (tell it who they are:
  /// `peers`), and the other nodes' events that reach it (through the node's
  /// move relay) are shown on this node's streams. Once.
  actors::event_exchange_actor share_events(const std::string& node_id,
                                            caf::actor connector);

  /// From now on, `/readyz` answers 200: the service takes requests.
  void set_ready();

  /// Event streams open now.
  std::size_t open_streams() const;

  /// Stops accepting, closes the event streams, lets the requests in flight
  /// be answered (at most `grace`), then stops the server, the gateway, the
  /// streams' feed and the external members.
  /// Returns how many requests were still unanswered. Idempotent.
  std::size_t stop(std::chrono::milliseconds grace);

  /// The gateway, routes and server (service.cpp).
  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

/// Refuses `settings.host` when it is not a loopback address and `token` is
/// empty (anyone who reaches it could drive negotiations): throws
/// std::runtime_error whose message starts with error code E019.
void check_exposure(const config::serve_settings& settings, const std::string& token);

/// The token of `settings`: `api_token`, else the first line of the token
/// file, trimmed of the whitespace around it (http/bearer.hpp); empty when
/// neither is given. Throws std::runtime_error, with error code E019, when
/// the file cannot be read or the token has fewer than
/// min_token_length (16) characters; the message names neither the
/// token nor its length.
std::string token_of(const config::serve_settings& settings,
                     const std::string& api_token);

} // namespace parley::service
