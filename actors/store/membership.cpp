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

} // namespace

const char* to_string(member_status x) {
  return status_names[static_cast<int>(x)];
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

std::string members_sql(dialect d) {
  if (d == dialect::postgresql)
    return "SELECT cluster, node_id, incarnation, api_address, node_address, "
           "CASE WHEN lease_until < now() THEN 'dead' ELSE status END, "
           "round(extract(epoch FROM joined_at) * 1000)::bigint, "
           "round(extract(epoch FROM heartbeat_at) * 1000)::bigint, "
           "round(extract(epoch FROM lease_until) * 1000)::bigint, "
           "round(extract(epoch FROM now() - heartbeat_at) * 1000)::bigint "
           "FROM cluster_members WHERE $1::text = '' OR cluster = $1 "
           "ORDER BY cluster, node_id, incarnation";
  return "SELECT cluster, node_id, incarnation, api_address, node_address, "
         "CASE WHEN lease_until < " +
         now(d) +
         " THEN 'dead' ELSE status END, joined_at, heartbeat_at, lease_until, "
         "CAST(round((julianday('now') - julianday(heartbeat_at)) * 86400000) AS "
         "INTEGER) FROM cluster_members WHERE ?1 = '' OR cluster = ?1 "
         "ORDER BY cluster, node_id, incarnation";
}

} // namespace parley::actors::store
