#include "actors/store/membership.hpp"

#include <iterator>

#include "actors/store/backend.hpp"

namespace parley::actors::store {

namespace {

constexpr const char* status_names[] = {"joining", "live", "leaving", "dead"};

/// The database's time now, and that time `ms_param` milliseconds later.
std::string now(dialect d) {
  return d == dialect::postgresql ? "now()" : "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
}

std::string now_plus(dialect d, const char* ms_param) {
  if (d == dialect::postgresql)
    return std::string{"now() + "} + ms_param + "::float8 * interval '1 millisecond'";
  return std::string{"strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('%+.3f seconds', "} +
         ms_param + " / 1000.0))";
}

/// "the row is incarnation (?1, ?2, ?3)".
std::string is_key(dialect d) {
  return d == dialect::postgresql
             ? "incarnation = $3 AND cluster = $1 AND node_id = $2"
             : "incarnation = ?3 AND cluster = ?1 AND node_id = ?2";
}

/// The advisory lock of a member's session: Parley's class and the
/// incarnation's low 31 bits (`incarnation` names the column or parameter).
std::string member_lock(const std::string& incarnation) {
  return "1348563564, (" + incarnation + " % 2147483648)::int4";
}

} // namespace

const char* to_string(member_status x) {
  return status_names[static_cast<int>(x)];
}

bool reachable(const member_row& m) {
  return m.status == member_status::live && m.taken_over_by == 0 &&
         !m.node_address.empty();
}

member_status stored_status(const std::string& text) {
  for (std::size_t i = 0; i < std::size(status_names); ++i)
    if (text == status_names[i])
      return static_cast<member_status>(i);
  throw store_error("stored cluster_members.status \"" + text + "\" is not a status");
}

void check_lease(std::int64_t lease_ms) {
  if (lease_ms <= 0 || lease_ms > max_lease_ms)
    throw query_error("a lease of " + std::to_string(lease_ms) +
                      " ms is not between 1 ms and a day");
}

std::string lock_members_sql() {
  // Conflicts with itself and with the row updates of heartbeats and
  // leaves, not with reads: joins are rare, and each is short.
  return "LOCK TABLE cluster_members IN SHARE ROW EXCLUSIVE MODE";
}

std::string supersede_sql(dialect d) {
  auto pg = d == dialect::postgresql;
  return "UPDATE cluster_members SET status = 'dead', lease_until = " +
         std::string{pg ? "least" : "min"} + "(lease_until, " + now(d) +
         ") WHERE cluster = " + (pg ? "$1" : "?1") +
         " AND node_id = " + (pg ? "$2" : "?2") + " AND status <> 'dead'";
}

std::string join_sql(dialect d) {
  auto pg = d == dialect::postgresql;
  return "INSERT INTO cluster_members (cluster, node_id, api_address, node_address, "
         "status, joined_at, heartbeat_at, lease_until) VALUES " +
         std::string{pg ? "($1, $2, $3, $4, " : "(?1, ?2, ?3, ?4, "} + "'joining', " +
         now(d) + ", " + now(d) + ", " + now_plus(d, pg ? "$5" : "?5") +
         ") RETURNING incarnation";
}

std::string heartbeat_sql(dialect d) {
  auto pg = d == dialect::postgresql;
  return "UPDATE cluster_members SET heartbeat_at = " + now(d) +
         ", lease_until = " + now_plus(d, pg ? "$4" : "?4") +
         ", status = CASE status WHEN 'joining' THEN 'live' ELSE status END WHERE " +
         is_key(d) + " AND status <> 'dead' AND lease_until >= " + now(d);
}

std::string leave_sql(dialect d) {
  auto pg = d == dialect::postgresql;
  return "UPDATE cluster_members SET status = 'dead', lease_until = " +
         std::string{pg ? "least" : "min"} + "(lease_until, " + now(d) + ") WHERE " +
         is_key(d) + " AND status <> 'dead'";
}

std::string hold_member_lock_sql() {
  return "SELECT pg_advisory_lock(" + member_lock("$1::bigint") + ")";
}

std::string fence_sql() {
  return "SELECT set_config('idle_in_transaction_session_timeout', $3::text, true) "
         "FROM "
         "cluster_members WHERE incarnation = $1 AND cluster = $2 AND "
         "status <> 'dead' AND taken_over_by IS NULL AND lease_until >= now() "
         "FOR SHARE";
}

std::string lock_members_for_sql(std::int64_t wait_ms) {
  return "SET LOCAL lock_timeout = " + std::to_string(wait_ms) + "; " +
         lock_members_sql();
}

std::string take_members_sql() {
  // The dead are locked in incarnation order, so that two takers never wait
  // for each other in a cycle; the lock waits for a write the dead one has
  // in flight (fence_sql), and a member another taker took meanwhile no
  // longer qualifies once its lock is granted. The session's lock is tried
  // last: only for a member that reads live, and it ends with the
  // transaction.
  return "UPDATE cluster_members m SET status = 'dead', lease_until = "
         "least(m.lease_until, now()), taken_over_by = $2 WHERE m.incarnation IN ("
         "SELECT d.incarnation FROM cluster_members d WHERE d.cluster = $1 AND "
         "d.incarnation <> $2 AND d.taken_over_by IS NULL AND (d.status = 'dead' OR "
         "d.lease_until < now() OR pg_try_advisory_xact_lock(" +
         member_lock("d.incarnation") +
         ")) ORDER BY d.incarnation FOR UPDATE) RETURNING m.incarnation";
}

std::string take_negotiations_sql() {
  return "UPDATE negotiation_runtime r SET owner = $1 FROM negotiations n WHERE "
         "n.id = r.negotiation_id AND (r.owner = ANY($2::bigint[]) OR ($3::boolean AND "
         "r.owner IS NULL)) "
         "AND " +
         open_states("n.state", dialect::postgresql);
}

std::string take_channels_sql() {
  return "UPDATE channels c SET owner = $1 WHERE (c.owner = ANY($2::bigint[]) OR "
         "($3::boolean AND c.owner IS NULL)) AND " +
         open_channels("c.status", dialect::postgresql);
}

/// The condition on member `m` (parameter $2: this node's incarnation) of
/// the owner queries: another live member, with a node address.
constexpr const char* live_other_owner =
    "m.incarnation <> $2 AND m.status <> 'dead' AND m.taken_over_by IS NULL AND "
    "m.lease_until >= now() AND m.node_address <> '' AND ";

std::string owner_address_sql() {
  return std::string{
             "SELECT m.node_address FROM negotiation_runtime r JOIN "
             "negotiations n ON n.id = r.negotiation_id JOIN cluster_members m "
             "ON m.incarnation = r.owner WHERE r.negotiation_id = $1::uuid AND "} +
         live_other_owner + open_states("n.state", dialect::postgresql);
}

std::string channel_owner_address_sql() {
  return std::string{"SELECT m.node_address FROM channels c JOIN cluster_members m ON "
                     "m.incarnation = c.owner WHERE c.channel_id = $1 AND "} +
         live_other_owner + open_channels("c.status", dialect::postgresql);
}

std::string members_sql(dialect d) {
  // What each owns (migration 009): its open negotiations and their rooms
  // counted in one pass over the open rows grouped by owner, its open
  // channels by the channels' owner index.
  auto owned = std::string{"coalesce(m.taken_over_by, 0), coalesce(o.negotiations, 0), "
                           "coalesce(o.rooms, 0), (SELECT count(*) FROM channels c "
                           "WHERE c.owner = m.incarnation AND "} +
               open_channels("c.status", d) + ")";
  auto from = "FROM cluster_members m LEFT JOIN (SELECT r.owner, count(*) AS "
              "negotiations, count(DISTINCT r.room_id) AS rooms FROM "
              "negotiation_runtime r JOIN negotiations n ON n.id = r.negotiation_id "
              "WHERE r.owner IS NOT NULL AND " +
              open_states("n.state", d) +
              " GROUP BY r.owner) o ON o.owner = m.incarnation";
  if (d == dialect::postgresql)
    return "SELECT m.cluster, m.node_id, m.incarnation, m.api_address, m.node_address, "
           "CASE WHEN m.lease_until < now() THEN 'dead' ELSE m.status END, "
           "round(extract(epoch FROM m.joined_at) * 1000)::bigint, "
           "round(extract(epoch FROM m.heartbeat_at) * 1000)::bigint, "
           "round(extract(epoch FROM m.lease_until) * 1000)::bigint, "
           "round(extract(epoch FROM now() - m.heartbeat_at) * 1000)::bigint, " +
           owned + " " + from +
           " WHERE $1::text = '' OR m.cluster = $1 "
           "ORDER BY m.cluster, m.node_id, m.incarnation";
  return "SELECT m.cluster, m.node_id, m.incarnation, m.api_address, m.node_address, "
         "CASE WHEN m.lease_until < " +
         now(d) +
         " THEN 'dead' ELSE m.status END, m.joined_at, m.heartbeat_at, m.lease_until, "
         "CAST(round((julianday('now') - julianday(m.heartbeat_at)) * 86400000) AS "
         "INTEGER), " +
         owned + " " + from +
         " WHERE ?1 = '' OR m.cluster = ?1 "
         "ORDER BY m.cluster, m.node_id, m.incarnation";
}

} // namespace parley::actors::store
