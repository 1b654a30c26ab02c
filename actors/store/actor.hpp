#pragma once

#include <chrono>
#include <memory>

#include "caf/fwd.hpp"

#include "actors/metrics/node_metrics.hpp"
#include "actors/store/backend.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/store.hpp"

namespace parley::actors::store {

/// How the store behaves once it runs.
struct store_options {
  /// How long a `sync` waits for its record before it fails with E028.
  std::chrono::milliseconds sync_timeout{10000};
  /// How many rows the `stats` high-convergence list holds.
  std::int32_t top_converging = 10;
  /// Where the writer records its commits; none: not recorded.
  std::shared_ptr<metrics::store_metrics> metrics;
  /// How long a negotiation keeps quiet to the store
  /// (`messages::subscription::settle_ms`). Zero: the store hears every
  /// event at once, as `parley serve` needs (a move's answer waits for its
  /// commit). `parley run` and `parley bench` settle (`store.settle_ms`,
  /// a second by default): a load test's negotiation that ends sooner is one
  /// insert of its final row (W1 N=100k: its three earlier events cost the
  /// run with a store a tenth of its time, docs/benchmarks/store.md "2026-11-28").
  std::chrono::milliseconds settle{0};
  /// A cluster's node (`parley serve --cluster`): both connections write as
  /// the fence's incarnation, and recovery reads only what it owns
  /// (backend::fence_with). None: a single node's store.
  std::shared_ptr<const member_fence> fence;
};

/// Opens the store `url` names (migrating its schema if needed), spawns the
/// store actor on a thread of its own (a detached actor: the database is
/// never called on the scheduler's threads) with its intake
/// (actors/store/intake.hpp: the negotiation topics of `events` go there,
/// settling after `options.settle`, and the store takes them in batches)
/// and subscribes the store to the channel topics
/// ("towow.*": each channel event is appended to channel_events in its
/// compact form, and its channel's row upserted in the same group commit
/// when the channel began, changed status or round, or ended, see
/// actors/store/channel_book.hpp). Throws store_error when the database
/// cannot be opened.
///
/// Two connections: the actor's own answers reads; the writer's
/// (actors/store/writer.hpp) commits on a second thread. Group commit: the
/// events taken from the intake fold into the pending batch
/// (actors/store/batch.hpp); when the writer is idle, the batch goes to it,
/// and whatever arrives while the transaction runs goes into the next one
/// (taken once the writer reports). A `flush` or `done` first takes what the
/// intake holds. A failed transaction (the database went away, its disk is
/// full, its file was deleted) fails every waiting `flush` and `sync` with
/// E028 at once, and each new one until a transaction succeeds again (a move
/// is refused fast instead of waiting out its request's time); the writer
/// keeps its batch and writes it again, before anything later, after 50 ms,
/// then after pauses doubling up to 2 s: a negotiation's record loses no
/// event to an outage. The
/// rare writes of agents and rooms (migration 002) are not batched: each waits
/// until every negotiation event received before it is committed (a flush
/// to itself), then commits on the actor's own connection and thread. See
/// messages/handles/store.hpp for the requests.
store_actor spawn_store(caf::actor_system& sys, const store_url& url,
                        const messages::event_sink& events, store_options options = {});

/// Opens the database `url` names and applies any migration it lacks: what
/// `parley run|bench|serve --store` do before `spawn_store`. Throws
/// store_error.
std::unique_ptr<backend> open_migrated(const store_url& url);

} // namespace parley::actors::store
