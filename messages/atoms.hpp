#pragma once

// Parley's atoms (at most 10 characters each).

#include "caf/atom.hpp"

namespace parley::messages {

using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
// The HTTP API's requests to the gateway (messages/handles/gateway.hpp).
using agent_atom = caf::atom_constant<caf::atom("agent")>;
using room_atom = caf::atom_constant<caf::atom("room")>;
using list_atom = caf::atom_constant<caf::atom("list")>;
using turns_atom = caf::atom_constant<caf::atom("turns")>;
using history_atom = caf::atom_constant<caf::atom("history")>;
using step_atom = caf::atom_constant<caf::atom("step")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
using shutdown_atom = caf::atom_constant<caf::atom("shutdown")>;
using echo_atom = caf::atom_constant<caf::atom("echo")>;
using count_atom = caf::atom_constant<caf::atom("count")>;
// The store's requests (messages/handles/store.hpp).
using sync_atom = caf::atom_constant<caf::atom("sync")>;
using get_atom = caf::atom_constant<caf::atom("get")>;
using query_atom = caf::atom_constant<caf::atom("query")>;
using stats_atom = caf::atom_constant<caf::atom("stats")>;
using expire_atom = caf::atom_constant<caf::atom("expire")>;
using archive_atom = caf::atom_constant<caf::atom("archive")>;
using load_atom = caf::atom_constant<caf::atom("load_open")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
using recover_atom = caf::atom_constant<caf::atom("recover")>;
/// Asks the store which cluster node runs a negotiation (docs/cluster.md,
/// "Any node answers").
using owner_atom = caf::atom_constant<caf::atom("owner")>;
using place_atom = caf::atom_constant<caf::atom("place")>;
/// Marks a move that another cluster node forwarded: its gateway looks up
/// the owner in the store only, never in its owner cache, so two nodes'
/// stale hints cannot send a move back and forth (docs/cluster.md, "Any node
/// answers").
using relayed_atom = caf::atom_constant<caf::atom("relayed")>;
/// Hands the coordinator the stored events of the open channels to resume
/// (messages/handles/coordinator.hpp).
using resume_atom = caf::atom_constant<caf::atom("resume")>;
/// Tells an external channel member the message ids it answered before a
/// restart (actors/channel/external_member.hpp).
using answered_atom = caf::atom_constant<caf::atom("answered")>;
using commit_atom = caf::atom_constant<caf::atom("commit")>;
using ping_atom = caf::atom_constant<caf::atom("ping")>;
/// Names the channels in a store request.
using channel_atom = caf::atom_constant<caf::atom("channel")>;
/// Names the demands in a store request.
using demand_atom = caf::atom_constant<caf::atom("demand")>;
/// Asks a node's room host for its side of a bridge (cluster/bridge/).
using bridge_atom = caf::atom_constant<caf::atom("bridge")>;
/// Tells an HTTP requester actor that jobs wait in its queue (service/).
using drain_atom = caf::atom_constant<caf::atom("drain")>;
/// Tells the store that events wait at its intake, and asks the intake for
/// them (actors/store/intake.hpp).
using events_atom = caf::atom_constant<caf::atom("events")>;
/// Tells a cluster node's event exchange the node addresses of the other
/// live members (cluster/event_exchange.hpp).
using peers_atom = caf::atom_constant<caf::atom("peers")>;

} // namespace parley::messages
