#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/atoms.hpp"
#include "messages/fwd.hpp"
#include "messages/handles/bus.hpp"

namespace parley::actors {

/// The negotiation store (see actors/store/actor.hpp): a bus subscriber that writes the
/// record (docs/protocols/record-and-schema.md) of every negotiation event it hears and
/// the channels from their events, and answers questions about them. Every error it
/// answers is a coded Parley error (E015 unknown negotiation, E007 unknown channel,
/// E001 bad query, E028 the database failed); it never crashes on one.
///
/// - `sync, id, rounds` answers, with the committed round count, once the
///   record of negotiation `id` with at least `rounds` rounds (or its end) is
///   committed; a move is answered 2xx over the API only after this.
///   `sync, id, rounds, true` waits for its end too (an expiry adds no
///   round). While the store cannot commit (a transaction failed and is not
///   written again yet), a sync it cannot answer from what is committed
///   fails with E028 at once, and the syncs waiting fail when it fails.
/// - `get, id`: the record of one negotiation (committed state).
/// - `query, filter`: the query patterns
///   (docs/protocols/record-and-schema.md, "Query patterns"), newest first, a page.
/// - `stats`: the monitoring queries
///   (docs/protocols/record-and-schema.md, "Monitoring queries").
/// - `expire`: expire_stale_negotiations(); how many it expired.
/// - `archive, days`: moves terminal negotiations created more than `days`
///   ago to negotiations_archive in one transaction; how many it moved.
/// - `load_open, cursor, limit`: a page of the negotiations that have not
///   ended (crash recovery): at most `limit` (1..10,000) after `cursor`
///   (empty for the first page; the previous page's `next_cursor`), soonest
///   to expire first; the last page has no `next_cursor`. One page at a
///   time, so that a recovery holds a page, not the store.
/// - `put, agent_spec` and `put, room_request`: writes the agent's row of
///   parley_agents (its spec) or the room's of parley_rooms (its members),
///   or replaces it; `delete, agent, id` deletes the agent's row and answers
///   whether there was one. Each answers once committed, and commits after
///   every negotiation event the store received before it (see
///   actors/store/actor.hpp).
/// - `get, agent, ids`: the stored agents among `ids` (a cluster's node
///   learns there the agents registered through the others).
/// - `load_open, agent, after, limit` and `load_open, room, after, limit`: a
///   page of the stored agents or rooms (crash recovery): at most `limit`
///   (1..10,000) with an id above `after` (empty for the first page), in id
///   order; a page shorter than `limit` is the last.
/// - `get, channel, id`: a channel's row (E007 when the store has
///   none); `list, channel, demand_id`: the rows of a demand's channels,
///   oldest first; `load_open, channel`: the events of every channel not
///   finalized, force finalized or failed, channel by channel, each in
///   order (a restart rebuilds the open channels from them); `load,
///   channel, id`: channel `id`'s events in order, none when the store has
///   none (a replayed answer to a channel that ended before a restart is
///   recognised from them). Committed state, like `get`.
/// - `put, demand_view`: writes a demand's row of parley_demands (its user,
///   raw input and understanding; its channels have rows of their own), as
///   `put, agent_spec` does; `get, demand, id`: the demand from that row and
///   its channels' rows (actors/store/stored_demand.hpp; E002 when the store
///   has neither).
/// - `owner, id`: the CAF node address (`host:port`) of the live member of
///   the cluster, other than this node, that runs open negotiation `id`;
///   "" when there is none (not a cluster's store, not open, run here, or
///   its owner is dead and a take-over will claim it).
/// - `owner, channel, id`: as `owner, id`, for open channel `id` (its
///   answers are forwarded there: actors/channel/answer_router.hpp).
/// - `ping`: answers "" once its database answered a small read, its last
///   transaction did not fail, and a look without writing finds nothing
///   against a write (backend::cannot_write: a store file deleted, replaced
///   or read-only, a full file system, a read-only PostgreSQL session);
///   else why not, as "cannot be read: …", "cannot commit: …" or "cannot
///   write: …" (`/readyz`: the store is writable).
/// - `flush`: answers, with how many events are committed in all, once
///   every event received before it is committed; E028 when a transaction
///   before it failed (at once while that one waits to be written again).
/// - `done`: commits what is pending and stops.
/// - `commit` is the store's own: it sends it to itself to commit a batch,
///   and its writer reports a batch written (with why it failed, or "");
///   `idle` too: its writer was idle for a second and gave back its
///   connection's page cache, and the store gives back its own.
/// - `events`: its intake has negotiation events for it (it takes them);
///   an `intake_actor` message names that intake (spawn_store sends it).
/// The store's intake (actors/store/intake.hpp): the subscriber its
/// negotiation events go to. `events, spare` hands over every event kept,
/// in the order heard, and keeps the next ones in `spare` (an emptied
/// vector of an earlier take: its memory goes back and forth instead of
/// being allocated anew for each batch).
using intake_actor = subscriber_actor::extend<
    caf::replies_to<messages::events_atom, std::vector<messages::negotiation_event>>::
        with<std::vector<messages::negotiation_event>>>;

/// The store's own message from its writer's thread (see `idle` above).
using idle_atom = caf::atom_constant<caf::atom("idle")>;

using store_actor = subscriber_actor::extend<
    caf::replies_to<messages::sync_atom, std::string, std::int32_t>::with<std::int32_t>,
    caf::replies_to<messages::sync_atom, std::string, std::int32_t,
                    bool>::with<std::int32_t>,
    caf::replies_to<messages::get_atom,
                    std::string>::with<messages::negotiation_record>,
    caf::replies_to<messages::query_atom,
                    messages::store_query>::with<messages::store_page>,
    caf::replies_to<messages::stats_atom>::with<messages::store_stats>,
    caf::replies_to<messages::expire_atom>::with<std::int64_t>,
    caf::replies_to<messages::archive_atom, std::int32_t>::with<std::int64_t>,
    caf::replies_to<messages::load_atom, std::string,
                    std::int32_t>::with<messages::store_page>,
    caf::replies_to<messages::ping_atom>::with<std::string>,
    caf::replies_to<messages::owner_atom, std::string>::with<std::string>,
    caf::replies_to<messages::owner_atom, messages::channel_atom,
                    std::string>::with<std::string>,
    caf::replies_to<messages::flush_atom>::with<std::int64_t>,
    caf::replies_to<caf::put_atom, messages::agent_spec>::with<bool>,
    caf::replies_to<messages::get_atom, messages::agent_atom,
                    std::vector<std::string>>::with<std::vector<messages::agent_spec>>,
    caf::replies_to<caf::delete_atom, messages::agent_atom, std::string>::with<bool>,
    caf::replies_to<caf::put_atom, messages::room_request>::with<bool>,
    caf::replies_to<messages::load_atom, messages::agent_atom, std::string,
                    std::int32_t>::with<std::vector<messages::agent_spec>>,
    caf::replies_to<messages::load_atom, messages::room_atom, std::string,
                    std::int32_t>::with<std::vector<messages::room_request>>,
    caf::replies_to<messages::get_atom, messages::channel_atom,
                    std::string>::with<messages::channel_record>,
    caf::replies_to<messages::list_atom, messages::channel_atom,
                    std::string>::with<std::vector<messages::channel_record>>,
    caf::replies_to<messages::load_atom,
                    messages::channel_atom>::with<std::vector<messages::channel_event>>,
    caf::replies_to<messages::load_atom, messages::channel_atom,
                    std::string>::with<std::vector<messages::channel_event>>,
    caf::replies_to<caf::put_atom, messages::demand_view>::with<bool>,
    caf::replies_to<messages::get_atom, messages::demand_atom,
                    std::string>::with<messages::demand_view>,
    caf::reacts_to<messages::done_atom>, caf::reacts_to<messages::commit_atom>,
    caf::reacts_to<messages::commit_atom, std::string>, caf::reacts_to<idle_atom>,
    caf::reacts_to<messages::events_atom>, caf::reacts_to<intake_actor>>;

} // namespace parley::actors
