#pragma once

#include <cstdint>
#include <string>

#include "actors/store/query.hpp"

namespace parley::actors::store {

/// A member's status in cluster_members (migration 008; docs/cluster.md,
/// "Membership"). What a member reads as: a lease that lapsed reads as dead,
/// whatever the row says.
enum class member_status : std::uint8_t { joining, live, leaving, dead };

/// "joining", "live", "leaving" or "dead", as the table spells it.
const char* to_string(member_status x);

/// The status the table spells `text`. Throws store_error for none of them
/// (a row its CHECK constraint should have refused).
member_status stored_status(const std::string& text);

/// A node joining cluster `cluster` as `node_id`, reachable at its HTTP API
/// (`api_address`) and its CAF node port (`node_address`), asking for a lease
/// of `lease_ms` from the database's clock.
struct member_join {
  std::string cluster;
  std::string node_id;
  std::string api_address;
  std::string node_address;
  std::int64_t lease_ms = 0;
};

/// One incarnation of a node in a cluster: what heartbeat and leave name.
struct member_key {
  std::string cluster;
  std::string node_id;
  std::int64_t incarnation = 0;
};

/// A row of cluster_members as `members` reads it: times are Unix
/// milliseconds of the database's clock, lease_age_ms (the time since the
/// last heartbeat) is computed by the database too.
struct member_row {
  member_key key;
  std::string api_address;
  std::string node_address;
  member_status status = member_status::dead;
  std::int64_t joined_at = 0;
  std::int64_t heartbeat_at = 0;
  std::int64_t lease_until = 0;
  std::int64_t lease_age_ms = 0;
};

/// The longest lease a node may ask for (a day): a longer one is a mistake,
/// and would keep a dead node's rooms unclaimed that long.
inline constexpr std::int64_t max_lease_ms = 24 * 60 * 60 * 1000;

/// Throws query_error unless 0 < `lease_ms` <= max_lease_ms.
void check_lease(std::int64_t lease_ms);

// The statements on cluster_members in `d`'s SQL (placeholders ?N / $N).
// Every time is the database's: now() in PostgreSQL (the transaction's
// start), strftime('now') in SQLite (the statement's).

/// Takes the table's write lock for a join (PostgreSQL; SQLite's BEGIN
/// IMMEDIATE already holds it), so that joins commit in the order of their
/// incarnations.
std::string lock_members_sql();

/// Parameters cluster, node id: marks every incarnation of that node that is
/// not dead as dead, its lease ended; the new incarnation supersedes them.
std::string supersede_sql(dialect d);

/// Parameters cluster, node id, api address, node address, lease ms: inserts
/// the new incarnation as joining; returns its incarnation (one row).
std::string join_sql(dialect d);

/// Parameters cluster, node id, incarnation, lease ms: renews the lease of
/// that incarnation while it holds one (not dead, lease not lapsed), a
/// joining one becoming live; one row changed when it did.
std::string heartbeat_sql(dialect d);

/// Parameters cluster, node id, incarnation: marks that incarnation dead, its
/// lease ended now; one row changed when it was not dead already.
std::string leave_sql(dialect d);

/// Parameter cluster (empty: every cluster): the rows of `member_row` in
/// order (cluster, node id, incarnation, api address, node address, status
/// as it reads, joined_at, heartbeat_at, lease_until, lease age in ms), by
/// cluster, node id and incarnation. PostgreSQL gives the times as Unix
/// milliseconds, SQLite as its ISO text.
std::string members_sql(dialect d);

} // namespace parley::actors::store
