#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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
  /// The incarnation that took over its work (0: none, migration 009).
  std::int64_t taken_over_by = 0;
  /// What it owns now: its open negotiations, the rooms they run in, and its
  /// open channels.
  std::int64_t negotiations = 0;
  std::int64_t rooms = 0;
  std::int64_t channels = 0;
};

/// Whether member `m`, as it was read, can be sent work: live (by the
/// database's clock: a lapsed lease reads dead), not taken over, with a node
/// port. Placement and the cluster's events go to these (docs/cluster.md).
bool reachable(const member_row& m);

/// The incarnation a node's store connections write as (docs/cluster.md,
/// "Fencing"): none until the node joined. Every write of a fenced connection
/// first checks, in its own transaction, that this incarnation still holds
/// its lease and was not taken over, and is refused otherwise. Shared by the
/// membership (which sets it once, after the join) and the store's
/// connections (which read it at every write, from their own threads).
class member_fence {
public:
  /// `lease_ms`: the node's lease. A write transaction that stays idle
  /// longer (its process paused in the middle of it) is ended by the
  /// database, so that it cannot hold up a take-over.
  member_fence(std::string cluster, std::int64_t lease_ms)
      : cluster_(std::move(cluster)), lease_ms_(lease_ms) {}

  const std::string& cluster() const noexcept { return cluster_; }

  std::int64_t lease_ms() const noexcept { return lease_ms_; }

  /// 0 until `hold`.
  std::int64_t incarnation() const noexcept { return incarnation_.load(); }

  void hold(std::int64_t incarnation) noexcept { incarnation_.store(incarnation); }

private:
  std::string cluster_;
  std::int64_t lease_ms_;
  std::atomic<std::int64_t> incarnation_{0};
};

/// What one take-over claimed (docs/cluster.md, "Ownership and take-over"):
/// the dead incarnations whose work it took, and how many of their open
/// negotiations and channels (with those no member owned) became its own.
struct take_over_report {
  std::vector<std::int64_t> incarnations;
  std::int64_t negotiations = 0;
  std::int64_t channels = 0;

  bool empty() const noexcept {
    return incarnations.empty() && negotiations == 0 && channels == 0;
  }
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

// PostgreSQL only: the fence, the membership session's lock and the
// take-over (docs/cluster.md, "Fencing", "Ownership and take-over").

/// Parameter incarnation: takes that member's session-level advisory lock,
/// which its membership connection holds while it lives. A take-over that
/// can take it knows the member's session ended (its process was killed).
std::string hold_member_lock_sql();

/// Parameters incarnation, cluster, milliseconds: one row, locked FOR SHARE
/// until the transaction ends, when that incarnation holds its lease and was
/// not taken over; none otherwise. A take-over's update of the row waits for
/// the transaction, so a write checked by it commits before the take-over
/// or not at all; and the transaction is ended by the database once it is
/// idle for the milliseconds given (its process paused), so that a
/// take-over never waits for it longer.
std::string fence_sql();

/// Takes the table's lock as a join does (lock_members_sql), waiting at most
/// `wait_ms`: take-overs and joins run one at a time, so they never wait for
/// each other in a cycle.
std::string lock_members_for_sql(std::int64_t wait_ms);

/// Parameters cluster, incarnation of the taker: marks every member of the
/// cluster that is dead (stored so, lease lapsed, or its session's lock
/// free) and not taken over as dead and taken over by the taker; returns
/// their incarnations. The taker checks its own lease first (fence_sql).
std::string take_members_sql();

/// Parameters taker, the array of incarnations taken over, whether to take
/// the unowned too: makes the taker the owner of their open negotiations
/// (and of the open ones nobody owns); `channels`: of their open channels.
std::string take_negotiations_sql();
std::string take_channels_sql();

/// Parameters negotiation id, this node's incarnation: the node address of
/// the live member (not this one, not taken over, lease held, a node
/// address given) that owns that open negotiation; no row otherwise.
std::string owner_address_sql();

/// Parameters channel id, this node's incarnation: as owner_address_sql, for
/// an open channel.
std::string channel_owner_address_sql();

/// Parameter cluster (empty: every cluster): the rows of `member_row` in
/// order (cluster, node id, incarnation, api address, node address, status
/// as it reads, joined_at, heartbeat_at, lease_until, lease age in ms,
/// taken_over_by or 0, open negotiations, their rooms, open channels), by
/// cluster, node id and incarnation. PostgreSQL gives the times as Unix
/// milliseconds, SQLite as its ISO text.
std::string members_sql(dialect d);

} // namespace parley::actors::store
