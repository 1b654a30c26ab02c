#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/store/batch.hpp"
#include "actors/store/channel_book.hpp"
#include "actors/store/membership.hpp"
#include "actors/store/registry.hpp"
#include "actors/store/store_url.hpp"
#include "messages/store.hpp"

namespace parley::actors::store {

/// A failure of the database (or of what it holds): the store answers it as
/// E028, `parley db` prints it and exits non-zero.
class store_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A query the store refuses before asking the database (an unknown state, a
/// bad cursor): answered as E001.
class query_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// A migration: its number, name and SQL each way.
struct migration {
  int version;
  const char* name;
  const char* up;
  const char* down;
};

/// Applies `apply` (one transaction each) to every migration of `all` newer
/// than `current`, oldest first; returns how many. What both back ends'
/// `migrate` share: each writes its own SQL.
int apply_newer(const std::vector<migration>& all, int current,
                const std::function<void(const migration&)>& apply);

/// The migration of `all` whose version is `current` (the one `rollback`
/// undoes), or null when none is applied.
const migration* applied_last(const std::vector<migration>& all, int current);

/// One database holding the store's schema (docs/protocols/record-and-schema.md).
/// Blocking: used only from the store's own thread (or the CLI). Every call throws
/// store_error on a database failure and leaves nothing half-written.
class backend {
public:
  virtual ~backend();

  /// Applies every migration not applied yet, each in its own transaction,
  /// recording it in schema_migrations; returns how many it applied.
  virtual int migrate() = 0;

  /// Undoes the newest applied migration; returns its version (0: none).
  virtual int rollback() = 0;

  /// What `parley db verify` finds missing or different from the schema
  /// (columns, constraints, indexes, trigger, function, tables); empty when
  /// the schema is complete.
  virtual std::vector<std::string> verify() = 0;

  /// Writes `ops` and `channels` in one transaction (each channel's row
  /// before its events).
  virtual void write(const std::vector<write_op>& ops, const channel_ops& channels) = 0;

  /// From now on, a commit on this connection leaves the log's upkeep (a
  /// SQLite checkpoint) to `checkpoint_if_due`, so that the commit's answers
  /// need not wait for it. Nothing to defer by default.
  virtual void defer_checkpoints() {}

  /// Does the upkeep deferred commits left due, if any.
  virtual void checkpoint_if_due() {}

  /// Gives back the memory the connection caches but does not use now
  /// (SQLite's page cache); nothing to give back by default.
  virtual void release_memory() {}

  /// Reads one row; false if there is none.
  virtual bool get(const std::string& id, negotiation_row& out) = 0;

  /// The query patterns (docs/protocols/record-and-schema.md, "Query patterns"; see
  /// messages::store_query).
  virtual std::vector<negotiation_row> query(const messages::store_query& q) = 0;

  /// The monitoring queries
  /// (docs/protocols/record-and-schema.md, "Monitoring queries"); the high-convergence
  /// list holds at most `top` rows.
  virtual messages::store_stats stats(std::int32_t top) = 0;

  /// expire_stale_negotiations() (docs/protocols/record-and-schema.md, "Maintenance");
  /// returns how many it expired.
  virtual std::int64_t expire() = 0;

  /// Moves terminal negotiations created more than `days` days ago to
  /// negotiations_archive in one transaction; returns how many.
  virtual std::int64_t archive(std::int32_t days) = 0;

  /// A page of the negotiations that have not ended (crash recovery): at
  /// most `limit` + 1 of them after `cursor` (empty: from the first; else a
  /// `cursor_after` of a row's expires_at and id), soonest to expire first
  /// (see open_page_sql). Throws query_error for a malformed cursor.
  virtual std::vector<negotiation_row> load_open(const std::string& cursor,
                                                 std::int32_t limit) = 0;

  /// The newest applied migration (0: none): a small read that needs the
  /// database to answer (`/readyz`).
  virtual int applied_version() = 0;

  /// Whether any migration was ever applied here: false for a new, empty
  /// database (`parley serve` refuses one unless told to create the store).
  virtual bool holds_store() = 0;

  /// Why what this connection commits no longer reaches the store's files
  /// (an SQLite file deleted or replaced since it was opened: its commits
  /// would be lost with the process), or empty. A stat or two; once lost,
  /// always lost, and every later write on this connection fails without
  /// writing (a file moved back may hold commits that were never answered).
  /// The writer asks after every commit, before the commit is answered.
  virtual std::string file_lost() { return {}; }

  /// Why the database could not take a write now, as far as a look without
  /// writing tells (its files lost or read-only, its file system full, a
  /// read-only PostgreSQL session), or empty. For `/readyz`: a few system
  /// calls or one small query.
  virtual std::string cannot_write() { return {}; }

  /// The migrations of this back end, oldest first.
  virtual const std::vector<migration>& migrations() const = 0;

  // The agents and rooms registered over the API (migration 002) and the
  // demands submitted over it (migration 005; see actors/store/registry.hpp).
  // Each write commits on its own.

  /// Inserts `row` into `kind`'s table, or replaces the JSON of the row with
  /// its id (keeping that row's created_at).
  virtual void put_entry(registry kind, const registry_row& row) = 0;

  /// Deletes the row of `kind`'s table with `id`; whether there was one.
  virtual bool delete_entry(registry kind, const std::string& id) = 0;

  /// A page of `kind`'s table: at most `limit` rows whose id is above
  /// `after` (empty: from the first), in id order (its primary key's, so
  /// that a page reads only its own rows).
  virtual std::vector<registry_row>
  load_entries(registry kind, const std::string& after, std::int32_t limit) = 0;

  /// Reads the row of `kind`'s table with `id`; false if there is none.
  virtual bool get_entry(registry kind, const std::string& id, registry_row& out) = 0;

  // The channels (migrations 003 and 004), written by `write`.

  /// Reads one channel's row; false if there is none.
  virtual bool get_channel(const std::string& id, messages::channel_record& out) = 0;

  /// The rows of demand `demand_id`'s channels, oldest first.
  virtual std::vector<messages::channel_record>
  demand_channels(const std::string& demand_id) = 0;

  /// Channel `id`'s events, in order (each read from its compact body, or
  /// from its JSON when it was stored before migration 004).
  virtual std::vector<messages::channel_event>
  channel_events(const std::string& id) = 0;

  /// The events of every channel not finalized, force finalized or failed:
  /// channel by channel (oldest first), each in order.
  virtual std::vector<messages::channel_event> open_channel_events() = 0;

  // The members of clusters (migration 008; docs/cluster.md, "Membership"),
  // every time from the database's clock. Each call commits on its own.
  // Throws query_error for a lease outside check_lease's range.

  /// Joins `j.cluster` as a new incarnation of `j.node_id` (status joining),
  /// superseding the node's earlier incarnations in the same transaction;
  /// returns the incarnation, larger than every earlier one of the table.
  virtual std::int64_t join(const member_join& j) = 0;

  /// Renews the lease of incarnation `k` for `lease_ms`, making a joining
  /// one live; false when `k` holds no lease any more (superseded, left, or
  /// its lease lapsed): that incarnation must stop serving.
  virtual bool heartbeat(const member_key& k, std::int64_t lease_ms) = 0;

  /// Marks incarnation `k` dead, its lease ended now (a node that leaves);
  /// false when it was dead already.
  virtual bool leave(const member_key& k) = 0;

  // Ownership and fencing (migration 009; docs/cluster.md, "Ownership and
  // take-over", "Fencing"). A cluster needs the PostgreSQL store: SQLite's
  // back end throws store_error for both.

  /// From now on this connection writes as `fence`'s incarnation: each
  /// write transaction first checks that the incarnation holds its lease and
  /// was not taken over (and throws store_error, writing nothing, when it
  /// does not, or before the node joined); the negotiations and channels it
  /// inserts are that incarnation's own; `load_open` and
  /// `open_channel_events` read only its own.
  virtual void fence_with(std::shared_ptr<const member_fence> fence);

  /// As incarnation `me` (which must hold its lease), takes over every
  /// member of `me.cluster` that is dead (its lease lapsed, it left or was
  /// superseded, or its membership session ended: a killed process) and
  /// that nobody took over yet, with its open negotiations and channels
  /// (and, when `unowned`, those no member owns: a node's first take-over,
  /// at its join), in one transaction: of two survivors, one wins each dead
  /// member. Waits for a write the dead one has in flight, and for joins
  /// and other take-overs, at most `wait_ms` (then throws store_error).
  virtual take_over_report take_over(const member_key& me, bool unowned,
                                     std::int64_t wait_ms);

  /// The node address of the live member, other than this connection's
  /// fenced incarnation, that owns open negotiation `id`; empty when there is
  /// none (see messages/handles/store.hpp, `owner`). Empty by default: a
  /// store that is not a cluster's.
  virtual std::string owner_address(const std::string& id) {
    static_cast<void>(id);
    return {};
  }

  /// As `owner_address`, for open channel `id` (messages/handles/store.hpp,
  /// `owner, channel, id`).
  virtual std::string channel_owner_address(const std::string& id) {
    static_cast<void>(id);
    return {};
  }

  /// Every incarnation of the members of `cluster` (empty: of every cluster),
  /// by cluster, node id and incarnation, each with its status as it reads
  /// now (a lapsed lease reads as dead).
  virtual std::vector<member_row> members(const std::string& cluster) = 0;
};

/// Opens the database `url` names (creating an SQLite file if needed). Throws
/// store_error when it cannot.
std::unique_ptr<backend> open_backend(const store_url& url);

} // namespace parley::actors::store
