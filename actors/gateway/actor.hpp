#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "actors/gateway/placement.hpp"
#include "actors/metrics/node_metrics.hpp"
#include "messages/commands.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/coordinator.hpp"
#include "messages/handles/gateway.hpp"
#include "messages/handles/room.hpp"
#include "messages/handles/store.hpp"

namespace parley::actors::gateway {

/// How the gateway waits and remembers.
struct gateway_options {
  /// How long a request may wait for its outcome before the gateway gives
  /// up on it (E030: the runtime is too busy to answer in time).
  std::chrono::milliseconds outcome_timeout{5000};
  /// Ended negotiations (and the results of their moves) it keeps, for
  /// replays of their moves without the store. About 7 KB each (an
  /// estimate from the record's size; 10,000 would hold ~70 MB after a load
  /// for good); older ones are the store's.
  std::size_t ended_limit = 1000;
  /// The store: an opening or a move is answered only once its record is
  /// committed there (`sync`), and a negotiation the gateway forgot is read
  /// from it. None: answered as soon as it is settled.
  store_actor store;
  /// How long `recover` may wait for each page the store loads, and for the
  /// coordinator to resume the open channels.
  std::chrono::milliseconds recovery_timeout{120000};
  /// The world's coordinator: `recover` hands it the store's open channels
  /// (docs/protocols/channels.md) to resume. None: channels are not resumed.
  coordinator_actor coordinator;
  /// A cluster's node (`parley serve --cluster`): a move for a negotiation
  /// open in the store that this node does not run is forwarded to the node
  /// that runs it (below), or answered E030 when none does yet (retry: a
  /// survivor will once it took it over), not E016.
  bool clustered = false;
  /// With `clustered`: the middleman actor (CAF's, or its OpenSSL module's
  /// for mutual TLS) through which the gateway reaches the move relays of
  /// the other nodes (messages/handles/move_relay.hpp). None: moves are not
  /// forwarded (E030).
  caf::actor connector;
  /// With `connector`: a negotiation opened in a pair's own room runs on the
  /// live node that ranks first for the room by rendezvous hashing over the
  /// members the membership last read, forwarded there when that is another
  /// node (docs/cluster.md, "Placement"). None: here.
  std::shared_ptr<const placement_table> placement;
  /// Where the moves it forwards are counted; none: not counted.
  std::shared_ptr<metrics::cluster_metrics> metrics;
};

/// How the gateway builds agents and rooms: the world builder's (runtime/
/// world.hpp), which must outlive the gateway. Called on the gateway's
/// thread; neither blocks.
struct builder {
  std::function<agent_actor(messages::agent_spec)> add_agent;
  std::function<room_actor(std::string id, std::vector<messages::room_member>)>
      add_room;
  /// Optional: learns the stored events of the open channels before the
  /// coordinator resumes them (serve: its external members learn which
  /// answers they already forwarded, service/channel_members.hpp).
  std::function<void(const std::vector<messages::channel_event>&)> restore_answers;
};

/// Spawns the gateway of the HTTP API (interface.hpp), which builds agents and rooms
/// with `build`, and subscribes it to `events`' lifecycle and problem topics: an
/// opening is answered by its `started` event, a move by the event or the refusal that
/// carries its message id (the rules of docs/protocols/bilateral.md stay in the
/// negotiation actor; the gateway only checks what it alone knows: which agents exist,
/// which of them are external, whether the negotiation already ended). With a store, a
/// 2xx answer means the record it shows is committed.
gateway_actor spawn_gateway(caf::actor_system& sys, builder build,
                            const messages::event_sink& events,
                            gateway_options options);

} // namespace parley::actors::gateway
