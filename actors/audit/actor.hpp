#pragma once

#include <memory>
#include <ostream>

#include "caf/fwd.hpp"

#include "messages/event_sink.hpp"
#include "messages/handles/audit.hpp"

namespace parley::actors::audit {

/// Spawns the append-only audit log: it subscribes to every topic of `events` and
/// writes one JSON line per event, in the order received:
/// `{"seq":1,"ts_ms":…,"topic":"negotiation.vote","event":{…}}`, where `seq`
/// counts from 1 and `ts_ms` is the actor clock (Unix milliseconds) when the
/// event was recorded. Every kind of event is recorded: negotiation lifecycle
/// (lean: see docs/scenario.md), ballots, auctions, channels
/// ("towow.*"), agents, errors and warnings.
///
/// `done_atom` flushes and stops it: send it after the last event reached
/// the bus's subscribers, so that nothing is cut off.
audit_actor spawn_audit_log(caf::actor_system& sys, const messages::event_sink& events,
                            std::shared_ptr<std::ostream> out);

} // namespace parley::actors::audit
