#pragma once

#include <chrono>
#include <memory>

#include "caf/fwd.hpp"

#include "actors/store/backend.hpp"
#include "actors/store/interface.hpp"
#include "messages/event_sink.hpp"

namespace parley::actors::store {

/// How the store behaves once it runs.
struct store_options {
  /// How long a `sync` waits for its record before it fails with E028.
  std::chrono::milliseconds sync_timeout{10000};
  /// How many rows the `stats` high-convergence list holds.
  std::int32_t top_converging = 10;
};

/// Spawns the store on a thread of its own (a detached actor: the database
/// is never called on the scheduler's threads) over `db`, whose schema must
/// be migrated, and subscribes it to the negotiation topics of `events`.
///
/// Group commit: an event folds into the pending batch (actors/store/
/// batch.hpp) and the first one of a batch sends the store a `commit`, which
/// lands behind everything already in its mailbox; while a transaction runs,
/// whatever arrives waits in the mailbox and goes into the next one. A failed
/// transaction fails the `sync`s and `flush`es waiting on it with E028 and
/// the store carries on. See actors/store/interface.hpp for the requests.
store_actor spawn_store(caf::actor_system& sys, std::unique_ptr<backend> db,
                        const messages::event_sink& events, store_options options = {});

/// Opens the database `url` names and applies any migration it lacks: what
/// `parley run|bench|serve --store` do before `spawn_store`. Throws
/// store_error.
std::unique_ptr<backend> open_migrated(const store_url& url);

} // namespace parley::actors::store
