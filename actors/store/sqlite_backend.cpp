#include "actors/store/sqlite_backend.hpp"

#include <array>
#include <cmath>
#include <iterator>
#include <map>
#include <utility>

#include <sqlite3.h>

#include "actors/store/channel_codec.hpp"
#include "actors/store/iso_time.hpp"
#include "actors/store/query.hpp"
#include "actors/store/schema.hpp"
#include "actors/store/sqlite_files.hpp"
#include "actors/store/sqlite_glob.hpp"

namespace parley::actors::store {

namespace {

constexpr const char* now_iso = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// The columns every read selects, in the order `read_row` takes them.
constexpr const char* row_columns =
    "n.id, n.intent_id, n.initiator_did, n.responder_did, n.state, n.rounds, "
    "n.convergence_score, n.current_proposal, n.final_proposal, n.incentive_split, "
    "n.max_rounds, n.created_at, n.expires_at, n.updated_at, r.room_id, "
    "r.round_timeout_ms, r.total_timeout_ms, r.status_reason, r.intent_text, r.score "
    "FROM negotiations n LEFT JOIN negotiation_runtime r ON r.negotiation_id = n.id";

/// A prepared statement, reset for reuse when it goes out of a `use`.
class statement {
public:
  statement(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt_,
                           nullptr) != SQLITE_OK)
      throw store_error(std::string{"SQLite cannot prepare: "} + sqlite3_errmsg(db) +
                        " in: " + sql);
  }

  ~statement() { sqlite3_finalize(stmt_); }

  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

  void bind(int i, const std::string& x) {
    check(sqlite3_bind_text(stmt_, i, x.data(), static_cast<int>(x.size()),
                            SQLITE_TRANSIENT));
  }

  /// Binds `x` without a copy: `x` must outlive the statement's next step.
  void bind_kept(int i, const std::string& x) {
    check(sqlite3_bind_text(stmt_, i, x.data(), static_cast<int>(x.size()),
                            SQLITE_STATIC));
  }

  /// Binds `size` bytes at `data` as a BLOB without a copy: they must
  /// outlive the next step.
  void bind_blob_kept(int i, const char* data, std::size_t size) {
    check(sqlite3_bind_blob(stmt_, i, data, static_cast<int>(size), SQLITE_STATIC));
  }

  /// bind_json without a copy: `text` must outlive the next step.
  void bind_json_kept(int i, const std::string& text) {
    if (text.empty())
      bind_null(i);
    else
      bind_kept(i, text);
  }

  void bind(int i, std::int64_t x) { check(sqlite3_bind_int64(stmt_, i, x)); }

  void bind(int i, double x) { check(sqlite3_bind_double(stmt_, i, x)); }

  void bind_null(int i) { check(sqlite3_bind_null(stmt_, i)); }

  /// Binds JSON text; an empty text binds NULL.
  void bind_json(int i, const std::string& text) {
    if (text.empty())
      bind_null(i);
    else
      bind(i, text);
  }

  /// Steps once; returns true while there is a row.
  bool step() {
    auto rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    throw store_error(std::string{"SQLite: "} + sqlite3_errmsg(db_));
  }

  void run() {
    while (step()) {
    }
  }

  std::string text(int col) const {
    auto p = sqlite3_column_text(stmt_, col);
    return p != nullptr ? std::string{reinterpret_cast<const char*>(p),
                                      static_cast<std::size_t>(
                                          sqlite3_column_bytes(stmt_, col))}
                        : std::string{};
  }

  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

  /// A BLOB column's bytes, valid until the next step.
  std::pair<const char*, std::size_t> blob(int col) const {
    auto p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
    return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))};
  }

  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }

  double real(int col) const { return sqlite3_column_double(stmt_, col); }

private:
  void check(int rc) {
    if (rc != SQLITE_OK)
      throw store_error(std::string{"SQLite cannot bind: "} + sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// A cached statement in use: reset when the use ends, so that no read
/// stays open (an open read would pin the WAL snapshot).
class use {
public:
  explicit use(statement& s) : s_(s) {}
  ~use() { s_.reset(); }
  use(const use&) = delete;
  use& operator=(const use&) = delete;
  statement* operator->() const noexcept { return &s_; }
  statement& operator*() const noexcept { return s_; }

private:
  statement& s_;
};

std::int64_t parse_time(const std::string& text, const char* column) {
  std::int64_t ms = 0;
  if (!text.empty() && !from_iso(text, ms))
    throw store_error(std::string{"stored "} + column + " \"" + text +
                      "\" is not an ISO 8601 timestamp");
  return ms;
}

negotiation_row read_row(const statement& s) {
  negotiation_row row;
  row.id = s.text(0);
  row.intent_id = s.text(1);
  row.initiator_did = s.text(2);
  row.responder_did = s.text(3);
  row.state = s.text(4);
  row.rounds = split_rounds(s.text(5));
  row.convergence_score = s.real(6);
  row.current_proposal = s.text(7);
  row.final_proposal = s.text(8);
  row.incentive_split = s.text(9);
  row.max_rounds = static_cast<std::int32_t>(s.integer(10));
  row.created_at = parse_time(s.text(11), "created_at");
  row.expires_at = parse_time(s.text(12), "expires_at");
  row.updated_at = parse_time(s.text(13), "updated_at");
  row.room_id = s.text(14);
  row.round_timeout_ms = s.integer(15);
  row.total_timeout_ms = s.integer(16);
  row.status_reason = s.text(17);
  row.intent_text = s.text(18);
  row.score = s.text(19);
  return row;
}

/// A transaction: rolled back unless committed.
class transaction {
public:
  explicit transaction(sqlite3* db, const char* begin = "BEGIN IMMEDIATE") : db_(db) {
    exec(begin);
  }

  ~transaction() {
    if (open_)
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }

  transaction(const transaction&) = delete;
  transaction& operator=(const transaction&) = delete;

  void commit() {
    exec("COMMIT");
    open_ = false;
  }

private:
  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err != nullptr ? err : "unknown error";
      sqlite3_free(err);
      throw store_error(std::string{"SQLite "} + sql + ": " + msg);
    }
  }

  sqlite3* db_;
  bool open_ = true;
};

/// How many new negotiations one INSERT statement writes: as many of the
/// first as fit, then of the next (the last is 1, so every row fits).
constexpr std::size_t insert_chunks[] = {256, 16, 1};

/// How much write-ahead log makes a checkpoint: little, because a
/// checkpoint fsyncs the log and the database file on the writer, and the
/// next commit waits for those fsyncs. Measured on ext4 (docs/benchmarks/api.md, "API:
/// the disk tail was the checkpoint"): serve's API p99 was 57–71 ms with a
/// checkpoint every 64 MiB, 24–29 ms every 4 MiB, 17–23 ms every 1 MiB (as
/// with no fsync at all, or on tmpfs), while W1 with `--store` ran as fast
/// with each of them.
constexpr int wal_checkpoint_bytes = 1024 * 1024;

constexpr const char* insert_head =
    "INSERT INTO negotiations (id, intent_id, initiator_did, responder_did, state, "
    "rounds, convergence_score, current_proposal, final_proposal, incentive_split, "
    "max_rounds, created_at, expires_at, updated_at) VALUES ";

constexpr const char* runtime_head =
    "INSERT INTO negotiation_runtime (negotiation_id, room_id, round_timeout_ms, "
    "total_timeout_ms, status_reason, intent_text, score) VALUES ";

/// `head` followed by `rows` groups of `columns` parameters. They are
/// plain `?`s, numbered left to right from 1: numbered ones (`?N`) cost
/// SQLite a search through all earlier ones each, when it prepares.
std::string multi_row_insert(const char* head, int columns, std::size_t rows) {
  std::string sql = head;
  for (std::size_t k = 0; k < rows; ++k) {
    sql += k == 0 ? "(" : ", (";
    for (int c = 0; c < columns; ++c)
      sql += c == 0 ? "?" : ", ?";
    sql += ")";
  }
  return sql;
}

/// The INSERT statements' text for each of insert_chunks, built once.
struct insert_texts {
  std::string negotiations[std::size(insert_chunks)];
  std::string runtime[std::size(insert_chunks)];
};

const insert_texts& insert_sql() {
  static const insert_texts texts = [] {
    insert_texts t;
    for (std::size_t k = 0; k < std::size(insert_chunks); ++k) {
      t.negotiations[k] = multi_row_insert(insert_head, 14, insert_chunks[k]);
      t.runtime[k] = multi_row_insert(runtime_head, 7, insert_chunks[k]);
    }
    return t;
  }();
  return texts;
}

/// The channel events' INSERT for each of insert_chunks, built once: a
/// replayed event (its seq taken) is skipped.
const std::array<std::string, std::size(insert_chunks)>& channel_event_sql() {
  static const auto texts = [] {
    std::array<std::string, std::size(insert_chunks)> t;
    for (std::size_t k = 0; k < t.size(); ++k)
      t[k] =
          multi_row_insert("INSERT INTO channel_events (channel_id, seq, type, at_ms, "
                           "body) VALUES ",
                           5, insert_chunks[k]) +
          " ON CONFLICT DO NOTHING";
    return t;
  }();
  return texts;
}

/// The columns a channel read selects, in the order `read_channel` takes them.
constexpr const char* channel_columns =
    "SELECT channel_id, demand_id, coalesce(parent_channel_id, ''), depth, status, "
    "round, coalesce(proposal, ''), responses, feedback, created_at, updated_at "
    "FROM channels";

/// The event of a channel_events row whose `body` and `event` are columns
/// `col` and `col + 1`: its compact body, or its JSON (stored before 004).
messages::channel_event read_channel_event(const statement& s, int col) {
  if (s.is_null(col))
    return channel_event_of(s.text(col + 1));
  auto [data, size] = s.blob(col);
  return decode_channel_event(data, size);
}

messages::channel_record read_channel(const statement& s) {
  messages::channel_record x;
  x.channel_id = s.text(0);
  x.demand_id = s.text(1);
  x.parent_channel_id = s.text(2);
  x.depth = static_cast<std::int32_t>(s.integer(3));
  x.status = s.text(4);
  x.round = static_cast<std::int32_t>(s.integer(5));
  read_proposal(s.text(6), x);
  x.responses = static_cast<std::int32_t>(s.integer(7));
  x.feedback = static_cast<std::int32_t>(s.integer(8));
  x.created_at = parse_time(s.text(9), "created_at");
  x.updated_at = parse_time(s.text(10), "updated_at");
  return x;
}

class sqlite_backend : public backend {
public:
  sqlite_backend(const std::string& path, bool synchronous_full) : files_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      std::string msg = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw store_error("cannot open the SQLite store " + path + ": " + msg);
    }
    sqlite3_busy_timeout(db_, 5000);
    if (install_glob(db_) != SQLITE_OK) {
      std::string msg = sqlite3_errmsg(db_);
      sqlite3_close(db_);
      throw store_error("cannot set up the SQLite store " + path + ": " + msg);
    }
    // A new file gets 8 KiB pages (SQLite's default is 4 KiB): a row of
    // the negotiations table is about 0.8 KiB, so each B-tree holds more per page, is
    // shallower, and splits less often (16 KiB took 10 % less CPU per row
    // than 4 KiB in W1 with `--store`). But every commit writes each page it
    // changed to the log in full, and the API's commits are small: with 8 KiB
    // the API served 1-9 % more than with 16 KiB in 5 of 5 pairs, W1 with
    // `--store` within the noise (docs/benchmarks/api.md, "2026-11-27, 13:50 UTC").
    // The page size is fixed once the file exists (WAL keeps it so), so on
    // an existing store this does nothing.
    exec("PRAGMA page_size = 8192");
    exec("PRAGMA journal_mode = WAL");
    exec(synchronous_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    // Seven indexes per row (the key and the table's six) want their pages
    // in memory: 16 MiB of page cache instead of SQLite's 2 MiB. Measured
    // against 64 MiB (docs/benchmarks/store.md, "2026-11-27, 21:00 UTC"): W1 with
    // `--store` 2-3 % faster (fewer pages to fault in), the API as fast, and
    // each connection 30-60 MiB smaller; what a commit touches beyond it is
    // read back from the OS's page cache.
    exec("PRAGMA cache_size = -16384");
    // A statement that may fail halfway inside a transaction (an UPDATE the
    // updated_at trigger extends) keeps a statement journal of the pages it
    // changes. On disk, each was a temp file opened, written and unlinked:
    // three quarters of the writer's write calls under the API's load.
    exec("PRAGMA temp_store = MEMORY");
    checkpoint_pages_ = wal_checkpoint_bytes / page_size();
    exec("PRAGMA wal_autocheckpoint = " + std::to_string(checkpoint_pages_));
    // A read in WAL mode opens (or creates) the log: both files are there.
    applied_version_if_any();
    files_.remember();
  }

  void defer_checkpoints() override {
    // Replaces the hook `wal_autocheckpoint` installed: it only notes the
    // log's size; the writer checkpoints after it has reported the commit.
    sqlite3_wal_hook(
        db_,
        [](void* self, sqlite3*, const char*, int pages) {
          static_cast<sqlite_backend*>(self)->wal_pages_ = pages;
          return SQLITE_OK;
        },
        this);
  }

  void release_memory() override { sqlite3_db_release_memory(db_); }

  void checkpoint_if_due() override {
    if (wal_pages_ < checkpoint_pages_)
      return;
    wal_pages_ = 0;
    // As the automatic one: PASSIVE, and a failure shows on the next commit.
    sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr,
                              nullptr);
  }

  ~sqlite_backend() override {
    cache_.clear();
    sqlite3_close(db_);
  }

  sqlite_backend(const sqlite_backend&) = delete;
  sqlite_backend& operator=(const sqlite_backend&) = delete;

  int migrate() override {
    ensure_migrations_table();
    int applied = apply_newer(migrations(), applied_version(), [&](const migration& m) {
      transaction tx{db_};
      exec(m.up);
      use s{prepared("INSERT INTO schema_migrations (version, name) VALUES (?1, ?2)")};
      s->bind(1, static_cast<std::int64_t>(m.version));
      s->bind(2, std::string{m.name});
      s->run();
      tx.commit();
    });
    cache_.clear();
    return applied;
  }

  int rollback() override {
    ensure_migrations_table();
    auto current = applied_version();
    const migration* last = applied_last(migrations(), current);
    if (!last)
      return 0;
    cache_.clear();
    transaction tx{db_};
    exec(last->down);
    exec("DELETE FROM schema_migrations WHERE version = " + std::to_string(current));
    tx.commit();
    return current;
  }

  std::vector<std::string> verify() override {
    std::vector<std::string> missing;
    std::map<std::string, std::string> objects; // name -> type
    std::string table_sql;
    {
      statement s{db_, "SELECT name, type, coalesce(sql, '') FROM sqlite_master"};
      while (s.step()) {
        objects[s.text(0)] = s.text(1);
        if (s.text(0) == "negotiations")
          table_sql = s.text(2);
        if (s.text(1) == "index" && s.text(0) == expires_index &&
            s.text(2).find(" WHERE ") == std::string::npos)
          missing.push_back("index " + std::string{expires_index} + " is not partial");
      }
    }
    if (objects["negotiations"] != "table")
      return {"table negotiations"};
    std::map<std::string, std::vector<std::string>> columns;
    {
      statement s{db_, "SELECT name, type, \"notnull\", dflt_value IS NOT NULL, pk "
                       "FROM pragma_table_info('negotiations')"};
      while (s.step())
        columns[s.text(0)] = {s.text(1), s.integer(2) != 0 || s.integer(4) != 0 ? "1" : "0",
                              s.integer(3) != 0 ? "1" : "0"};
    }
    for (const auto& c : seed_columns()) {
      auto i = columns.find(c.name);
      if (i == columns.end()) {
        missing.push_back(std::string{"column negotiations."} + c.name);
        continue;
      }
      const auto& got = i->second;
      if (got[0] != c.sqlite_type)
        missing.push_back(std::string{"column negotiations."} + c.name + " of type " +
                          c.sqlite_type + " (found " + got[0] + ")");
      if ((got[1] == "1") != c.not_null)
        missing.push_back(std::string{"column negotiations."} + c.name +
                          (c.not_null ? " NOT NULL" : " nullable"));
      if ((got[2] == "1") != c.has_default)
        missing.push_back(std::string{"column negotiations."} + c.name +
                          (c.has_default ? " with a default" : " without a default"));
    }
    for (const auto& name : seed_checks())
      if (table_sql.find("CONSTRAINT " + name + " CHECK") == std::string::npos)
        missing.push_back("constraint " + name);
    for (const auto& name : seed_indexes())
      if (objects[name] != "index")
        missing.push_back("index " + name);
    if (objects[updated_at_trigger] != "trigger")
      missing.push_back(std::string{"trigger "} + updated_at_trigger);
    if (objects[expire_function] != "view")
      missing.push_back(std::string{"function "} + expire_function +
                        " (SQLite: the view of that name)");
    for (const auto& name : other_tables())
      if (objects[name] != "table")
        missing.push_back("table " + name);
    for (const auto& x : added_columns()) {
      if (objects[x.table] != "table")
        continue;
      statement s{db_, "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2"};
      s.bind(1, std::string{x.table});
      s.bind(2, std::string{x.column});
      if (s.step() && s.integer(0) == 0)
        missing.push_back(std::string{"column "} + x.table + "." + x.column);
    }
    verify_registry(missing);
    return missing;
  }

  void write(const std::vector<write_op>& ops, const channel_ops& channels) override {
    refuse_if_lost();
    transaction tx{db_};
    write_channels(channels);
    // New negotiations go in `insert_chunk` rows per statement: one
    // statement runs its per-statement work (the table's state CHECK builds
    // its IN list, the statement starts and resets) once for all of them.
    std::vector<const write_op*> fresh;
    fresh.reserve(ops.size());
    for (const auto& op : ops) {
      if (op.insert)
        fresh.push_back(&op);
      else
        update(op);
    }
    std::size_t i = 0;
    for (std::size_t k = 0; k < std::size(insert_chunks); ++k)
      for (; i + insert_chunks[k] <= fresh.size(); i += insert_chunks[k])
        insert(fresh.data() + i, k);
    tx.commit();
  }

  bool get(const std::string& id, negotiation_row& out) override {
    use s{prepared(std::string{"SELECT "} + row_columns + " WHERE n.id = ?1")};
    s->bind(1, id);
    if (!s->step())
      return false;
    out = read_row(*s);
    return true;
  }

  std::vector<negotiation_row> query(const messages::store_query& q) override {
    auto where = where_of(q, dialect::sqlite);
    use s{prepared(page_sql(row_columns, where, limit_of(q)))};
    for (std::size_t i = 0; i < where.params.size(); ++i)
      s->bind(static_cast<int>(i + 1), where.params[i]);
    std::vector<negotiation_row> rows;
    while (s->step())
      rows.push_back(read_row(*s));
    return rows;
  }

  messages::store_stats stats(std::int32_t top) override {
    messages::store_stats out;
    transaction tx{db_, "BEGIN"}; // one snapshot for every figure
    {
      use s{prepared(
          "SELECT initiator_did, COUNT(*) FILTER (WHERE state = 'accepted'), "
          "COUNT(*) FILTER (WHERE state = 'rejected'), "
          "COUNT(*) FILTER (WHERE state = 'expired'), "
          "ROUND(CAST(COUNT(*) FILTER (WHERE state = 'accepted') AS REAL) / "
          "NULLIF(COUNT(*), 0) * 100, 2) AS success_rate_pct "
          "FROM negotiations WHERE created_at > "
          "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') "
          "GROUP BY initiator_did ORDER BY success_rate_pct DESC, initiator_did")};
      while (s->step())
        out.success_by_agent.push_back(
            {s->text(0), s->integer(1), s->integer(2), s->integer(3), s->real(4)});
    }
    {
      use s{prepared("SELECT state, AVG(json_array_length(rounds)) FROM negotiations "
                         "WHERE state IN ('accepted', 'rejected') AND created_at > "
                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-7 days') "
                         "GROUP BY state ORDER BY state")};
      while (s->step())
        out.rounds_by_outcome.push_back({s->text(0), s->real(1)});
    }
    {
      use s{prepared(
          "SELECT state, COUNT(*), "
          "AVG((julianday('now') - julianday(created_at)) * 86400.0) "
          "FROM negotiations WHERE created_at > "
          "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-24 hours') "
          "GROUP BY state ORDER BY state")};
      while (s->step())
        out.current.push_back({s->text(0), s->integer(1), s->real(2)});
    }
    {
      use s{prepared(
          "SELECT COUNT(*) FILTER (WHERE state = 'expired'), "
          "COUNT(*) FILTER (WHERE state IN ('accepted', 'rejected')), "
          "ROUND(CAST(COUNT(*) FILTER (WHERE state = 'expired') AS REAL) / "
          "NULLIF(COUNT(*), 0) * 100, 2) "
          "FROM negotiations WHERE created_at > "
          "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-7 days')")};
      if (s->step()) {
        out.expiration.expired = s->integer(0);
        out.expiration.completed = s->integer(1);
        if (!s->is_null(2))
          out.expiration.expiration_rate_pct = s->real(2);
      }
    }
    {
      use s{prepared("SELECT id, initiator_did, responder_did, convergence_score, "
                         "json_array_length(rounds) FROM negotiations "
                         "WHERE state = 'counter_proposed' AND convergence_score > 0.8 "
                         "ORDER BY convergence_score DESC LIMIT ?1")};
      s->bind(1, static_cast<std::int64_t>(top));
      while (s->step())
        out.high_convergence.push_back({s->text(0), s->text(1), s->text(2), s->real(3),
                                        static_cast<std::int32_t>(s->integer(4))});
    }
    out.outcomes = outcome_figures();
    tx.commit();
    return out;
  }

  /// The outcome figures (docs/protocols/record-and-schema.md, "Outcome
  /// figures"), inside the caller's transaction.
  messages::outcome_figures outcome_figures() {
    std::int64_t ended = 0;
    std::int64_t agreed = 0;
    {
      use s{prepared(outcome_counts_sql(dialect::sqlite))};
      if (s->step()) {
        ended = s->integer(0);
        agreed = s->integer(1);
      }
    }
    auto out = outcome_figures_of(
        ended, agreed, [&](agreement_measure measure, std::int64_t offset) {
          use s{prepared(agreed_measure_sql(measure, dialect::sqlite))};
          s->bind(1, offset);
          return s->step() && !s->is_null(0) ? s->real(0) : 0.0;
        });
    use s{prepared(score_means_sql(dialect::sqlite))};
    if (s->step()) {
      std::array<double, score_mean_count> means{};
      for (std::size_t i = 0; i < means.size(); ++i) {
        auto column = static_cast<int>(i) + 1;
        means[i] = s->is_null(column) ? std::nan("") : s->real(column);
      }
      out.scores = score_means_of(s->integer(0), means);
    }
    return out;
  }

  std::int64_t expire() override {
    transaction tx{db_};
    use s{prepared("UPDATE negotiations SET state = 'expired' "
                       "WHERE id IN (SELECT id FROM expire_stale_negotiations)")};
    s->run();
    auto n = sqlite3_changes(db_);
    tx.commit();
    return n;
  }

  std::int64_t archive(std::int32_t days) override {
    auto age = "-" + std::to_string(days) + " days";
    static constexpr const char* old_and_ended =
        " WHERE created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?1)"
        " AND state IN ('accepted', 'rejected', 'expired')";
    transaction tx{db_};
    use copy{prepared(std::string{"INSERT INTO negotiations_archive SELECT * FROM "
                                      "negotiations"} +
                          old_and_ended)};
    copy->bind(1, age);
    copy->run();
    // negotiation_runtime's rows go with theirs (its foreign key is not
    // enforced: checking it on every insert would cost more than this).
    use forget{prepared(std::string{"DELETE FROM negotiation_runtime WHERE negotiation_id "
                                    "IN (SELECT id FROM negotiations"} +
                        old_and_ended + ")")};
    forget->bind(1, age);
    forget->run();
    use remove{prepared(std::string{"DELETE FROM negotiations"} + old_and_ended)};
    remove->bind(1, age);
    remove->run();
    auto n = sqlite3_changes(db_);
    tx.commit();
    return n;
  }

  std::vector<negotiation_row> load_open(const std::string& cursor,
                                         std::int32_t limit) override {
    where_clause where;
    use s{prepared(open_page_sql(row_columns, cursor, limit, dialect::sqlite, where))};
    for (std::size_t i = 0; i < where.params.size(); ++i)
      s->bind(static_cast<int>(i + 1), where.params[i]);
    std::vector<negotiation_row> rows;
    while (s->step())
      rows.push_back(read_row(*s));
    return rows;
  }

  const std::vector<migration>& migrations() const override {
    return sqlite_migrations();
  }

  // The agents and rooms (migration 002): one statement each, on its own a
  // transaction.

  void put_entry(registry kind, const registry_row& row) override {
    refuse_if_lost();
    use s{prepared(upsert_sql(kind, dialect::sqlite))};
    s->bind(1, row.id);
    s->bind(2, row.json);
    s->run();
  }

  bool delete_entry(registry kind, const std::string& id) override {
    refuse_if_lost();
    use s{prepared(delete_sql(kind, dialect::sqlite))};
    s->bind(1, id);
    s->run();
    return sqlite3_changes(db_) > 0;
  }

  std::vector<registry_row> load_entries(registry kind, const std::string& after,
                                         std::int32_t limit) override {
    use s{prepared(load_sql(kind, dialect::sqlite))};
    s->bind(1, after);
    s->bind(2, std::int64_t{limit});
    std::vector<registry_row> rows;
    while (s->step())
      rows.push_back({s->text(0), s->text(1)});
    return rows;
  }

  bool get_entry(registry kind, const std::string& id, registry_row& out) override {
    use s{prepared(get_sql(kind, dialect::sqlite))};
    s->bind(1, id);
    if (!s->step())
      return false;
    out = {s->text(0), s->text(1)};
    return true;
  }

  bool get_channel(const std::string& id, messages::channel_record& out) override {
    use s{prepared(std::string{channel_columns} + " WHERE channel_id = ?1")};
    s->bind(1, id);
    if (!s->step())
      return false;
    out = read_channel(*s);
    return true;
  }

  std::vector<messages::channel_record>
  demand_channels(const std::string& demand_id) override {
    use s{prepared(std::string{channel_columns} +
                   " WHERE demand_id = ?1 ORDER BY created_at, channel_id")};
    s->bind(1, demand_id);
    std::vector<messages::channel_record> rows;
    while (s->step())
      rows.push_back(read_channel(*s));
    return rows;
  }

  std::vector<messages::channel_event> channel_events(const std::string& id) override {
    use s{prepared("SELECT body, event FROM channel_events WHERE channel_id = ?1 "
                   "ORDER BY seq")};
    s->bind(1, id);
    std::vector<messages::channel_event> out;
    while (s->step())
      out.push_back(read_channel_event(*s, 0));
    return out;
  }

  std::vector<messages::channel_event> open_channel_events() override {
    use s{prepared(std::string{"SELECT e.body, e.event FROM channel_events e JOIN "
                               "channels c ON c.channel_id = e.channel_id WHERE "} +
                   open_channels("c.status", dialect::sqlite) +
                   " ORDER BY c.created_at, c.channel_id, e.seq")};
    std::vector<messages::channel_event> out;
    while (s->step())
      out.push_back(read_channel_event(*s, 0));
    return out;
  }

  // The members of clusters (migration 008).

  std::int64_t join(const member_join& j) override {
    check_lease(j.lease_ms);
    refuse_if_lost();
    transaction tx{db_};
    {
      use s{prepared(supersede_sql(dialect::sqlite))};
      s->bind(1, j.cluster);
      s->bind(2, j.node_id);
      s->run();
    }
    std::int64_t incarnation = 0;
    {
      use s{prepared(join_sql(dialect::sqlite))};
      s->bind(1, j.cluster);
      s->bind(2, j.node_id);
      s->bind(3, j.api_address);
      s->bind(4, j.node_address);
      s->bind(5, j.lease_ms);
      if (!s->step())
        throw store_error("SQLite join: the new member's row gave no incarnation");
      incarnation = s->integer(0);
      s->run();
    }
    tx.commit();
    return incarnation;
  }

  bool heartbeat(const member_key& k, std::int64_t lease_ms) override {
    check_lease(lease_ms);
    refuse_if_lost();
    use s{prepared(heartbeat_sql(dialect::sqlite))};
    s->bind(1, k.cluster);
    s->bind(2, k.node_id);
    s->bind(3, k.incarnation);
    s->bind(4, lease_ms);
    s->run();
    return sqlite3_changes(db_) == 1;
  }

  bool leave(const member_key& k) override {
    refuse_if_lost();
    use s{prepared(leave_sql(dialect::sqlite))};
    s->bind(1, k.cluster);
    s->bind(2, k.node_id);
    s->bind(3, k.incarnation);
    s->run();
    return sqlite3_changes(db_) == 1;
  }

  std::vector<member_row> members(const std::string& cluster) override {
    use s{prepared(members_sql(dialect::sqlite))};
    s->bind(1, cluster);
    std::vector<member_row> rows;
    while (s->step()) {
      member_row m;
      m.key = {s->text(0), s->text(1), s->integer(2)};
      m.api_address = s->text(3);
      m.node_address = s->text(4);
      m.status = stored_status(s->text(5));
      m.joined_at = parse_time(s->text(6), "joined_at");
      m.heartbeat_at = parse_time(s->text(7), "heartbeat_at");
      m.lease_until = parse_time(s->text(8), "lease_until");
      m.lease_age_ms = s->integer(9);
      m.taken_over_by = s->integer(10);
      m.negotiations = s->integer(11);
      m.rooms = s->integer(12);
      m.channels = s->integer(13);
      rows.push_back(std::move(m));
    }
    return rows;
  }

  int applied_version() override {
    statement s{db_, "SELECT coalesce(max(version), 0) FROM schema_migrations"};
    s.step();
    return static_cast<int>(s.integer(0));
  }

  bool holds_store() override { return applied_version_if_any() > 0; }

  std::string file_lost() override { return files_.lost(); }

  std::string cannot_write() override {
    if (sqlite3_db_readonly(db_, "main") == 1)
      return "the SQLite store is open read-only (its file was not writable when "
             "it was opened)";
    return files_.unwritable();
  }

private:
  /// The newest applied migration, 0 when there is no schema_migrations
  /// table (a new database).
  int applied_version_if_any() {
    statement s{db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                     "name = 'schema_migrations'"};
    s.step();
    return s.integer(0) == 0 ? 0 : applied_version();
  }

  /// Throws once the store's files are known to be lost: a write now would
  /// go where no restart finds it.
  void refuse_if_lost() {
    if (const auto& why = files_.lost_known(); !why.empty())
      throw store_error(why);
  }

  /// A cached prepared statement, reset and ready to bind; valid until the
  /// cache is cleared (migrations change the schema).
  statement& prepared(const std::string& sql) {
    auto& slot = cache_[sql];
    if (!slot)
      slot = std::make_unique<statement>(db_, sql);
    return *slot;
  }

  /// What `verify` finds missing of migration 002's tables.
  void verify_registry(std::vector<std::string>& missing) {
    for (const auto& table : registry_tables()) {
      std::map<std::string, found_column> found;
      statement s{db_, "SELECT name, type, \"notnull\", dflt_value IS NOT NULL, pk "
                       "FROM pragma_table_info(?1)"};
      s.bind(1, std::string{table.name});
      while (s.step())
        found[s.text(0)] = {s.text(1), s.integer(2) != 0 || s.integer(4) != 0,
                            s.integer(3) != 0};
      statement sql{db_, "SELECT coalesce(sql, '') FROM sqlite_master WHERE name = ?1"};
      sql.bind(1, std::string{table.name});
      auto has_check =
          sql.step() && sql.text(0).find(std::string{"CONSTRAINT "} + table.check +
                                         " CHECK") != std::string::npos;
      compare_table(table, found, has_check, false, missing);
    }
  }

  int page_size() {
    statement s{db_, "PRAGMA page_size"};
    s.step();
    return static_cast<int>(s.integer(0));
  }

  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err != nullptr ? err : "unknown error";
      sqlite3_free(err);
      throw store_error("SQLite: " + msg);
    }
  }

  void ensure_migrations_table() {
    exec(std::string{"CREATE TABLE IF NOT EXISTS schema_migrations ("
                     "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                     "applied_at TEXT NOT NULL DEFAULT ("} +
         now_iso + "))");
  }

  /// Inserts insert_chunks[`chunk`] rows with their negotiation_runtime rows,
  /// in two statements.
  void insert(const write_op* const* rows, std::size_t chunk) {
    auto n = insert_chunks[chunk];
    // The texts the ops do not hold, alive until the statements ran.
    scratch_.clear();
    scratch_.reserve(n);
    use s{prepared(insert_sql().negotiations[chunk])};
    for (std::size_t k = 0; k < n; ++k) {
      const auto& row = rows[k]->row;
      const auto& texts =
          rows[k]->texts ? *rows[k]->texts : scratch_.emplace_back(texts_of(row));
      auto p = static_cast<int>(k * 14);
      s->bind_kept(p + 1, row.id);
      s->bind_kept(p + 2, row.intent_id);
      s->bind_kept(p + 3, row.initiator_did);
      s->bind_kept(p + 4, row.responder_did);
      s->bind_kept(p + 5, row.state);
      s->bind_kept(p + 6, texts.rounds);
      s->bind(p + 7, row.convergence_score);
      s->bind_json_kept(p + 8, row.current_proposal);
      s->bind_json_kept(p + 9, row.final_proposal);
      s->bind_json_kept(p + 10, row.incentive_split);
      s->bind(p + 11, static_cast<std::int64_t>(row.max_rounds));
      s->bind_kept(p + 12, texts.created_at);
      s->bind_kept(p + 13, texts.expires_at);
      s->bind_kept(p + 14, texts.updated_at);
    }
    s->run();
    use r{prepared(insert_sql().runtime[chunk])};
    for (std::size_t k = 0; k < n; ++k) {
      const auto& row = rows[k]->row;
      auto p = static_cast<int>(k * 7);
      r->bind_kept(p + 1, row.id);
      r->bind_kept(p + 2, row.room_id);
      r->bind(p + 3, row.round_timeout_ms);
      r->bind(p + 4, row.total_timeout_ms);
      r->bind_kept(p + 5, row.status_reason);
      r->bind_kept(p + 6, row.intent_text);
      r->bind_json_kept(p + 7, row.score);
    }
    r->run();
  }

  /// Upserts the channels' rows (keeping the stored proposal when a row
  /// brings none), then appends the events in their compact form (a
  /// replayed event's seq is taken: it is skipped).
  void write_channels(const channel_ops& channels) {
    if (channels.empty())
      return;
    auto& upsert = prepared(
        "INSERT INTO channels (channel_id, demand_id, parent_channel_id, depth, "
        "status, "
        "round, proposal, responses, feedback, created_at, updated_at) "
        "VALUES (?1, ?2, nullif(?3, ''), ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
        "ON CONFLICT (channel_id) DO UPDATE SET demand_id = excluded.demand_id, "
        "parent_channel_id = excluded.parent_channel_id, depth = excluded.depth, "
        "status = excluded.status, round = excluded.round, "
        "proposal = coalesce(excluded.proposal, channels.proposal), "
        "responses = excluded.responses, "
        "feedback = excluded.feedback, updated_at = excluded.updated_at");
    for (const auto& x : channels.rows) {
      use s{upsert};
      s->bind(1, x.channel_id);
      s->bind(2, x.demand_id);
      s->bind(3, x.parent_channel_id);
      s->bind(4, static_cast<std::int64_t>(x.depth));
      s->bind(5, x.status);
      s->bind(6, static_cast<std::int64_t>(x.round));
      s->bind_json(7, proposal_json(x));
      s->bind(8, static_cast<std::int64_t>(x.responses));
      s->bind(9, static_cast<std::int64_t>(x.feedback));
      s->bind(10, to_iso(x.created_at));
      s->bind(11, to_iso(x.updated_at));
      s->run();
    }
    // insert_chunks[k] events per statement, as the negotiations.
    const auto& events = channels.events;
    std::size_t i = 0;
    for (std::size_t k = 0; k < std::size(insert_chunks); ++k) {
      for (; i + insert_chunks[k] <= events.size(); i += insert_chunks[k]) {
        use s{prepared(channel_event_sql()[k])};
        for (std::size_t j = 0; j < insert_chunks[k]; ++j) {
          const auto& e = events[i + j];
          auto p = static_cast<int>(j * 5);
          s->bind_kept(p + 1, e.channel_id);
          s->bind(p + 2, e.seq);
          s->bind_kept(p + 3, type_name(e.kind));
          s->bind(p + 4, e.at_ms);
          s->bind_blob_kept(p + 5, channels.body(e), e.body_size);
        }
        s->run();
      }
    }
  }

  void update(const write_op& op) {
    const auto& row = op.row;
    // Append only the rounds past the stored array's end.
    use len{prepared("SELECT json_array_length(rounds) FROM negotiations WHERE id = ?1")};
    len->bind(1, row.id);
    if (!len->step())
      return; // not stored: nothing to update (its start was never written)
    auto stored = len->integer(0);
    len->reset();
    auto fresh = rounds_array(row.rounds, stored);
    use s{prepared(
        "UPDATE negotiations SET state = ?2, rounds = CASE WHEN ?3 = '[]' THEN rounds "
        "WHEN rounds = '[]' THEN ?3 "
        "ELSE substr(rounds, 1, length(rounds) - 1) || ',' || substr(?3, 2) END, "
        "convergence_score = ?4, current_proposal = ?5, "
        "final_proposal = coalesce(?6, final_proposal), updated_at = ?7 WHERE id = ?1")};
    s->bind(1, row.id);
    s->bind(2, row.state);
    s->bind(3, fresh);
    s->bind(4, row.convergence_score);
    s->bind_json(5, row.current_proposal);
    s->bind_json(6, row.final_proposal);
    s->bind(7, to_iso(row.updated_at));
    s->run();
    if (op.terminal) {
      use r{prepared("UPDATE negotiation_runtime SET status_reason = ?2, score = ?3 "
                     "WHERE negotiation_id = ?1")};
      r->bind(1, row.id);
      r->bind(2, row.status_reason);
      r->bind_json(3, row.score);
      r->run();
    }
  }

  sqlite3* db_ = nullptr;
  std::map<std::string, std::unique_ptr<statement>> cache_;
  std::vector<row_texts> scratch_;
  /// The log's size that makes a checkpoint due, and (noted by the hook of
  /// `defer_checkpoints`, 0 until then) its size after the last commit.
  int checkpoint_pages_ = 0;
  int wal_pages_ = 0;
  sqlite_files files_;
};

} // namespace

std::unique_ptr<backend> open_sqlite(const std::string& path, bool synchronous_full) {
  // Before SQLite's first use in the process: no memory statistics, which
  // take a global mutex on every allocation and free (13 per row written).
  // Nothing reads them. Refused, harmlessly, once SQLite is initialised.
  static const int memstatus_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  static_cast<void>(memstatus_off);
  return std::make_unique<sqlite_backend>(path, synchronous_full);
}

} // namespace parley::actors::store
