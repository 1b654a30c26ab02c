#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "actors/bus/interface.hpp"
#include "messages/atoms.hpp"
#include "messages/fwd.hpp"

namespace parley::actors {

/// The negotiation store (see actors/store/actor.hpp): a bus subscriber that
/// writes seed 003's record of every negotiation event it hears, and answers
/// questions about the records. Every error it answers is a coded Parley
/// error (E015 unknown negotiation, E001 bad query, E028 the database
/// failed); it never crashes on one.
///
/// - `sync, id, rounds` answers, with the committed round count, once the
///   record of negotiation `id` with at least `rounds` rounds (or its end) is
///   committed; a move is answered 2xx over the API only after this.
/// - `get, id`: the record of one negotiation (committed state).
/// - `query, filter`: seed 003's query patterns, newest first, a page.
/// - `stats`: seed 003's monitoring and analysis queries.
/// - `expire`: seed 003's expire_stale_negotiations(); how many it expired.
/// - `archive, days`: moves terminal negotiations created more than `days`
///   ago to negotiations_archive in one transaction; how many it moved.
/// - `load_open`: every negotiation that has not ended (crash recovery).
/// - `flush`: answers, with how many events are committed in all, once
///   every event received before it is committed.
/// - `done`: commits what is pending and stops.
/// - `commit` is the store's own: it sends it to itself to commit a batch.
using store_actor = subscriber_actor::extend<
    caf::replies_to<messages::sync_atom, std::string, std::int32_t>::with<std::int32_t>,
    caf::replies_to<messages::get_atom, std::string>::with<messages::negotiation_record>,
    caf::replies_to<messages::query_atom, messages::store_query>::with<
        messages::store_page>,
    caf::replies_to<messages::stats_atom>::with<messages::store_stats>,
    caf::replies_to<messages::expire_atom>::with<std::int64_t>,
    caf::replies_to<messages::archive_atom, std::int32_t>::with<std::int64_t>,
    caf::replies_to<messages::load_atom>::with<std::vector<messages::negotiation_record>>,
    caf::replies_to<messages::flush_atom>::with<std::int64_t>,
    caf::reacts_to<messages::done_atom>, caf::reacts_to<messages::commit_atom>>;

} // namespace parley::actors
