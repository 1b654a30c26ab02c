#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "caf/fwd.hpp"

#include "actors/auction/actor.hpp"
#include "actors/ballot/actor.hpp"
#include "actors/channel/actor.hpp"
#include "actors/metrics/node_metrics.hpp"
#include "cluster/room_placement.hpp"
#include "config/settings.hpp"
#include "messages/agent_profile.hpp"
#include "messages/channel_member.hpp"
#include "messages/commands.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/audit.hpp"
#include "messages/handles/bus.hpp"
#include "messages/handles/coordinator.hpp"
#include "messages/handles/llm_client.hpp"
#include "messages/handles/room.hpp"
#include "messages/handles/store.hpp"
#include "messages/handles/timer.hpp"

namespace parley::actors::agent {
class brain;
} // namespace parley::actors::agent

namespace parley::actors::store {
class member_fence;
} // namespace parley::actors::store

namespace parley::runtime {

/// The actors of one Parley run, built the same way by `parley run`,
/// `parley bench`, `parley serve` and the tests: the event bus, the agents
/// (rule, script or LLM brain; LLM agents share one HTTP client per provider
/// and endpoint), the rooms (here, or on `parley node`s) with the timer
/// service and negotiation actors of the local ones, ballots and auctions,
/// and the audit log.
///
/// Not an actor: it lives with the code that builds it, spawns actors and
/// stops them. Every handle it returns is typed. Adding agents and rooms is
/// safe from several threads at once (a load test builds on every core).
class world {
public:
  /// Spawns the bus, connects to `remotes` (the nodes rooms are placed on;
  /// none: all local) and opens the audit log when `settings.audit.path` is
  /// set. Throws std::runtime_error when a node cannot be reached or the
  /// audit log cannot be written.
  /// With `metrics`, a metrics actor subscribes to the bus
  /// (actors/metrics/actor.hpp), and the store and the LLM clients record
  /// there too (`parley serve`'s /metrics).
  world(caf::actor_system& sys, config::settings settings,
        const std::vector<std::string>& remotes = {},
        std::uint64_t coordinator_seed = 0,
        std::shared_ptr<actors::metrics::node_metrics> metrics = nullptr);

  /// Stops whatever is still running (see `stop`).
  ~world();

  world(const world&) = delete;
  world& operator=(const world&) = delete;

  caf::actor_system& system() noexcept { return sys_; }

  const config::settings& settings() const noexcept { return settings_; }

  const messages::event_sink& events() const noexcept { return events_; }

  /// The instruments given to the constructor (null: none).
  const std::shared_ptr<actors::metrics::node_metrics>& metrics() const noexcept {
    return metrics_;
  }

  /// Agents added from now on number their messages from `n` + 1 (see
  /// actors::agent::peers): `parley serve` makes ids unique across restarts.
  void number_agent_messages_from(std::uint64_t n) noexcept { first_message_ = n; }

  /// Spawns an agent with the brain its spec names.
  actors::agent_actor add_agent(messages::agent_spec spec);

  /// Spawns an agent `id` whose brain is `mind`, a strategy of the
  /// application's own (actors/agent/brain.hpp; examples/custom_brain/ has
  /// one). It negotiates like a rule agent, its decisions are `mind`'s, and
  /// it stops with the world (actors::agent::spawn_agent). Throws
  /// std::invalid_argument when `mind` is null.
  actors::agent_actor add_agent(std::string id,
                                std::unique_ptr<actors::agent::brain> mind);

  /// A room's spec: `id`, with `members` (agent id, handle, whether its brain
  /// is an LLM), the configured negotiation settings and history limit, the
  /// bus, and `seed` for its ids.
  messages::room_spec room_spec(std::string id,
                                std::vector<messages::room_member> members,
                                std::uint64_t seed) const;

  /// Builds rooms, in order: here, or spread over the nodes.
  std::vector<actors::room_actor> add_rooms(std::vector<messages::room_spec> specs);

  /// Opens a ballot here and returns the actor that takes its votes.
  actors::ballot_actor open_ballot(messages::ballot_spec spec,
                                   messages::consensus_peers with);

  /// Opens an auction here and returns the actor that takes its bids.
  actors::auction_actor open_auction(messages::auction_spec spec,
                                     messages::consensus_peers with);

  /// The world's coordinator (actors/coordinator/actor.hpp): demands go to
  /// it; every channel member added here is registered with it. Its ids are
  /// drawn from `coordinator_seed` (constructor), the same in every run.
  const actors::coordinator_actor& coordinator() const noexcept { return coordinator_; }

  /// Spawns a channel member (actors/channel/member.hpp) that reports a bad
  /// spec to the bus, and keeps it until `stop`.
  actors::channel_member_actor add_channel_member(messages::channel_member_spec spec);

  /// Opens a channel here (actors/channel/actor.hpp). Unset peers are this
  /// world's: the timer service, and the bus for its problems. The channel
  /// stops itself once finalized, force finalized or failed; it is not kept.
  actors::channel_actor open_channel(actors::channel::channel_spec spec,
                                     actors::channel::peers with);

  /// Opens the store `url` names (migrating its schema if needed), spawns
  /// the store actor over it and subscribes it to the bus: every negotiation
  /// and channel event from now on is written (actors/store/actor.hpp), and
  /// the coordinator keeps its demands there. Throws
  /// actors::store::store_error when the database cannot be opened. A store
  /// that `settles` hears a negotiation younger than `store.settle_ms` only
  /// at its end (actors/store/actor.hpp, `store_options::settle`): only for a
  /// store that no API answers from, since a move's answer waits for its
  /// commit. With a `fence`, the store writes as a cluster's node
  /// (actors/store/actor.hpp, `store_options::fence`).
  actors::store_actor
  add_store(const std::string& url, bool settles = false,
            std::shared_ptr<const actors::store::member_fence> fence = nullptr);

  /// The store, if added.
  const actors::store_actor& store() const noexcept { return store_; }

  /// Waits until the store committed every event it received before now,
  /// at most `limit`; returns an empty string or why it did not (a store
  /// error, the limit). Call it once the last event reached the bus's
  /// subscribers. True at once without a store.
  std::string flush_store(std::chrono::milliseconds limit);

  /// Agents with an LLM brain (they may work while nothing else happens).
  std::vector<actors::agent_actor> llm_agents() const;

  /// Flushes the audit log, commits what the store holds and stops every long-lived
  /// actor: agents, channel members, rooms, LLM clients, the store, the bus
  /// (docs/caf-notes.md, "Shutdown can hang": cycles, subscriptions and pending timers
  /// would keep them alive). Idempotent.
  void stop();

private:
  actors::agent_actor add_llm_agent(messages::agent_spec spec);

  /// Keeps `agent` among the world's agents (stopped with it) and returns it.
  actors::agent_actor keep(actors::agent_actor agent);

  /// The world's HTTP client of `provider` at `endpoint` (either empty: the
  /// llm settings'), spawned on first use and shared by every LLM caller of
  /// it (agents, channel members), so that its circuit breaker and
  /// concurrency budget cover them all.
  actors::llm_client_actor llm_client(const std::string& provider,
                                      const std::string& endpoint);

  caf::actor_system& sys_;
  config::settings settings_;
  messages::event_sink events_;
  actors::timer_actor timers_;
  std::shared_ptr<actors::negotiation::pool> negotiations_;
  std::shared_ptr<actors::ballot::pool> ballots_;
  std::shared_ptr<actors::auction::pool> auctions_;
  std::unique_ptr<cluster::room_placement> nodes_;
  /// Guards what follows: the long-lived actors to stop, and the clients.
  mutable std::mutex mtx_;
  std::vector<actors::agent_actor> agents_;
  std::vector<actors::agent_actor> llm_agents_;
  std::vector<actors::room_actor> rooms_;
  std::vector<actors::channel_member_actor> channel_members_;
  actors::coordinator_actor coordinator_;
  /// One HTTP client per provider and endpoint.
  std::map<std::string, actors::llm_client_actor> llm_clients_;
  actors::audit_actor audit_;
  actors::store_actor store_;
  std::shared_ptr<actors::metrics::node_metrics> metrics_;
  actors::subscriber_actor metrics_actor_;
  std::uint64_t first_message_ = 0;
  bool stopped_ = false;
};

} // namespace parley::runtime
