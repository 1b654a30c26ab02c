#include "actors/store/postgresql_backend.hpp"

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include <pqxx/pqxx>

#include "actors/store/channel_codec.hpp"
#include "actors/store/json_text.hpp"
#include "actors/store/postgresql_copy.hpp"
#include "actors/store/query.hpp"
#include "actors/store/schema.hpp"
#include "actors/store/uuid.hpp"

namespace parley::actors::store {

namespace {

/// The columns every read selects, in the order `read_row` takes them: times
/// as Unix milliseconds, JSONB as text.
constexpr const char* pg_row_columns =
    "n.id::text, n.intent_id::text, n.initiator_did, n.responder_did, n.state, "
    "n.rounds::text, n.convergence_score::float8, n.current_proposal::text, "
    "n.final_proposal::text, n.incentive_split::text, n.max_rounds, "
    "round(extract(epoch FROM n.created_at) * 1000)::bigint, "
    "round(extract(epoch FROM n.expires_at) * 1000)::bigint, "
    "round(extract(epoch FROM n.updated_at) * 1000)::bigint, r.room_id, "
    "r.round_timeout_ms, r.total_timeout_ms, r.status_reason, r.intent_text, "
    "r.score::text "
    "FROM negotiations n LEFT JOIN negotiation_runtime r ON r.negotiation_id = n.id";

/// Updates a batch of negotiations in one statement; appends only the rounds
/// past the stored array's end.
constexpr const char* update_sql =
    "UPDATE negotiations n SET state = x.state, "
    "rounds = n.rounds || coalesce((SELECT jsonb_agg(r ORDER BY (r->>'round')::int) "
    "FROM jsonb_array_elements(x.rounds) r "
    "WHERE (r->>'round')::int > jsonb_array_length(n.rounds)), '[]'::jsonb), "
    "convergence_score = x.convergence_score, current_proposal = x.current_proposal, "
    "final_proposal = coalesce(x.final_proposal, n.final_proposal), "
    "updated_at = x.updated_at "
    "FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, state text, rounds jsonb, "
    "convergence_score numeric, current_proposal jsonb, final_proposal jsonb, "
    "updated_at timestamptz) WHERE n.id = x.id";

constexpr const char* finish_sql =
    "UPDATE negotiation_runtime t SET status_reason = x.status_reason, score = x.score "
    "FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, status_reason text, score jsonb) "
    "WHERE t.negotiation_id = x.id";

/// Upserts a channel's row (times as Unix milliseconds; an empty parent is
/// NULL; an empty proposal keeps the stored one). A new row's owner is $12
/// (0: none, migration 009); an update keeps the stored one.
constexpr const char* channel_upsert_sql =
    "INSERT INTO channels (channel_id, demand_id, parent_channel_id, depth, status, "
    "round, proposal, responses, feedback, created_at, updated_at, owner) "
    "VALUES ($1, $2, nullif($3, ''), $4, $5, $6, nullif($7, '')::jsonb, $8, $9, "
    "to_timestamp($10::bigint / 1000.0), to_timestamp($11::bigint / 1000.0), "
    "nullif($12::bigint, 0)) "
    "ON CONFLICT (channel_id) DO UPDATE SET demand_id = excluded.demand_id, "
    "parent_channel_id = excluded.parent_channel_id, depth = excluded.depth, "
    "status = excluded.status, round = excluded.round, "
    "proposal = coalesce(excluded.proposal, channels.proposal), "
    "responses = excluded.responses, feedback = excluded.feedback, "
    "updated_at = excluded.updated_at";

/// Appends a channel's event in its compact form; a replayed one (its seq
/// taken) is skipped.
constexpr const char* channel_event_sql =
    "INSERT INTO channel_events (channel_id, seq, type, at_ms, body) "
    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";

/// The event of a channel_events row whose `body` and `event` are columns
/// `col` and `col + 1`: its compact body, or its JSON (stored before 004).
messages::channel_event read_channel_event(const pqxx::row& r, int col) {
  if (r[col].is_null())
    return channel_event_of(r[col + 1].as<std::string>());
  pqxx::binarystring body{r[col]};
  return decode_channel_event(body.get(), body.size());
}

/// The columns a channel read selects, in the order `read_channel` takes them.
constexpr const char* pg_channel_columns =
    "SELECT channel_id, demand_id, coalesce(parent_channel_id, ''), depth, status, "
    "round, coalesce(proposal::text, ''), responses, feedback, "
    "round(extract(epoch FROM created_at) * 1000)::bigint, "
    "round(extract(epoch FROM updated_at) * 1000)::bigint FROM channels";

messages::channel_record read_channel(const pqxx::row& r) {
  messages::channel_record x;
  x.channel_id = r[0].as<std::string>();
  x.demand_id = r[1].as<std::string>();
  x.parent_channel_id = r[2].as<std::string>();
  x.depth = r[3].as<std::int32_t>();
  x.status = r[4].as<std::string>();
  x.round = r[5].as<std::int32_t>();
  read_proposal(r[6].as<std::string>(), x);
  x.responses = r[7].as<std::int32_t>();
  x.feedback = r[8].as<std::int32_t>();
  x.created_at = r[9].as<std::int64_t>();
  x.updated_at = r[10].as<std::int64_t>();
  return x;
}

template <class T> T value_or(const pqxx::field& f, T fallback) {
  return f.is_null() ? fallback : f.as<T>();
}

negotiation_row read_row(const pqxx::row& r) {
  negotiation_row row;
  row.id = r[0].as<std::string>();
  row.intent_id = r[1].as<std::string>();
  row.initiator_did = r[2].as<std::string>();
  row.responder_did = r[3].as<std::string>();
  row.state = r[4].as<std::string>();
  row.rounds = split_rounds(r[5].as<std::string>());
  row.convergence_score = value_or(r[6], 0.0);
  row.current_proposal = value_or<std::string>(r[7], "");
  row.final_proposal = value_or<std::string>(r[8], "");
  row.incentive_split = value_or<std::string>(r[9], "");
  row.max_rounds = value_or<std::int32_t>(r[10], 10);
  row.created_at = value_or<std::int64_t>(r[11], 0);
  row.expires_at = value_or<std::int64_t>(r[12], 0);
  row.updated_at = value_or<std::int64_t>(r[13], 0);
  row.room_id = value_or<std::string>(r[14], "");
  row.round_timeout_ms = value_or<std::int64_t>(r[15], 0);
  row.total_timeout_ms = value_or<std::int64_t>(r[16], 0);
  row.status_reason = value_or<std::string>(r[17], "");
  row.intent_text = value_or<std::string>(r[18], "");
  row.score = value_or<std::string>(r[19], "");
  return row;
}

/// Appends `,"name":` and `value` as a JSON string.
void put(std::string& out, const char* name, const std::string& value) {
  out += ",\"";
  out += name;
  out += "\":";
  append_json_string(out, value);
}

/// Appends `,"name":` and `text`, JSON already (null when empty).
void put_json(std::string& out, const char* name, const std::string& text) {
  out += ",\"";
  out += name;
  out += "\":";
  out += text.empty() ? std::string{"null"} : text;
}

void put_number(std::string& out, const char* name, double x) {
  out += ",\"";
  out += name;
  out += "\":";
  append_json_number(out, x);
}

/// Appends `{"id":…` and the columns an update sets.
void append_update(std::string& out, const negotiation_row& row, const row_texts& texts) {
  out += "{\"id\":";
  append_json_string(out, row.id);
  put(out, "state", row.state);
  put_json(out, "rounds", texts.rounds);
  put_number(out, "convergence_score", row.convergence_score);
  put_json(out, "current_proposal", row.current_proposal);
  put_json(out, "final_proposal", row.final_proposal);
  put(out, "updated_at", texts.updated_at);
}

/// A JSON array of rows, one element per op `pick` accepts.
template <class Pick, class Append>
std::string rows_array(const std::vector<write_op>& ops, Pick pick, Append append) {
  std::string out = "[";
  for (const auto& op : ops) {
    if (!pick(op))
      continue;
    if (out.size() > 1)
      out.push_back(',');
    append(out, op);
  }
  out.push_back(']');
  return out;
}

class postgresql_backend : public backend {
public:
  explicit postgresql_backend(const std::string& uri) {
    guarded("connect", [&] { conn_ = std::make_unique<pqxx::connection>(uri); });
  }

  int migrate() override {
    return guarded("migrate", [&] {
      ensure_migrations_table();
      int applied = apply_newer(migrations(), applied_version(), [&](const migration& m) {
        pqxx::work w{*conn_};
        w.exec(m.up);
        w.exec_params("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                      m.version, std::string{m.name});
        w.commit();
      });
      prepared_.clear();
      return applied;
    });
  }

  int rollback() override {
    return guarded("rollback", [&] {
      ensure_migrations_table();
      auto current = applied_version();
      const migration* last = applied_last(migrations(), current);
      if (!last)
        return 0;
      pqxx::work w{*conn_};
      w.exec(last->down);
      w.exec_params("DELETE FROM schema_migrations WHERE version = $1", current);
      w.commit();
      prepared_.clear();
      return current;
    });
  }

  std::vector<std::string> verify() override {
    return guarded("verify", [&] {
      std::vector<std::string> missing;
      pqxx::read_transaction w{*conn_};
      auto exists = [&](const std::string& name) {
        return !w.exec_params1("SELECT to_regclass($1) IS NULL", name)[0].as<bool>();
      };
      if (!exists("negotiations"))
        return std::vector<std::string>{"table negotiations"};
      std::map<std::string, pqxx::row> columns;
      auto cols = w.exec(
          "SELECT column_name, data_type, is_nullable = 'NO', column_default IS NOT NULL, "
          "coalesce(numeric_precision, 0), coalesce(numeric_scale, 0) "
          "FROM information_schema.columns WHERE table_schema = current_schema() "
          "AND table_name = 'negotiations'");
      for (const auto& r : cols)
        columns.emplace(r[0].as<std::string>(), r);
      for (const auto& c : seed_columns()) {
        auto name = std::string{"column negotiations."} + c.name;
        auto i = columns.find(c.name);
        if (i == columns.end()) {
          missing.push_back(name);
          continue;
        }
        const auto& r = i->second;
        if (r[1].as<std::string>() != c.postgresql_type)
          missing.push_back(name + " of type " + c.postgresql_type + " (found " +
                            r[1].as<std::string>() + ")");
        if (r[2].as<bool>() != c.not_null)
          missing.push_back(name + (c.not_null ? " NOT NULL" : " nullable"));
        if (r[3].as<bool>() != c.has_default)
          missing.push_back(name + (c.has_default ? " with a default" : " without a default"));
        if (std::string{c.name} == "convergence_score" &&
            (r[4].as<int>() != 3 || r[5].as<int>() != 2))
          missing.push_back(name + " of type NUMERIC(3,2)");
      }
      std::set<std::string> constraints;
      for (const auto& r : w.exec("SELECT conname FROM pg_constraint "
                                  "WHERE conrelid = 'negotiations'::regclass"))
        constraints.insert(r[0].as<std::string>());
      for (const auto& name : seed_checks())
        if (!constraints.count(name))
          missing.push_back("constraint " + name);
      if (!constraints.count("negotiations_pkey"))
        missing.push_back("constraint negotiations_pkey");
      std::map<std::string, std::string> indexes;
      for (const auto& r : w.exec("SELECT indexname, indexdef FROM pg_indexes "
                                  "WHERE schemaname = current_schema() "
                                  "AND tablename = 'negotiations'"))
        indexes[r[0].as<std::string>()] = r[1].as<std::string>();
      for (const auto& name : seed_indexes())
        if (!indexes.count(name))
          missing.push_back("index " + name);
      auto expiry = indexes.find(expires_index);
      if (expiry != indexes.end() && expiry->second.find(" WHERE ") == std::string::npos)
        missing.push_back(std::string{"index "} + expires_index + " is not partial");
      if (w.exec_params1("SELECT count(*) FROM pg_trigger WHERE tgrelid = "
                         "'negotiations'::regclass AND NOT tgisinternal AND tgname = $1",
                         std::string{updated_at_trigger})[0]
              .as<int>() == 0)
        missing.push_back(std::string{"trigger "} + updated_at_trigger);
      if (w.exec_params1("SELECT count(*) FROM pg_proc WHERE proname = $1",
                         std::string{expire_function})[0]
              .as<int>() == 0)
        missing.push_back(std::string{"function "} + expire_function + "()");
      for (const auto& name : other_tables())
        if (!exists(name))
          missing.push_back("table " + name);
      for (const auto& x : added_columns())
        if (exists(x.table) &&
            w.exec_params1("SELECT count(*) FROM information_schema.columns WHERE "
                           "table_schema = current_schema() AND table_name = $1 AND "
                           "column_name = $2",
                           std::string{x.table}, std::string{x.column})[0]
                    .as<int>() == 0)
          missing.push_back(std::string{"column "} + x.table + "." + x.column);
      verify_registry(w, missing);
      return missing;
    });
  }

  void write(const std::vector<write_op>& ops, const channel_ops& channels) override {
    guarded("write", [&] {
      auto updates = rows_array(
          ops, [](const write_op& op) { return !op.insert; },
          [](std::string& out, const write_op& op) {
            append_update(out, op.row, texts_of(op.row));
            out.push_back('}');
          });
      auto finishes = rows_array(
          ops, [](const write_op& op) { return !op.insert && op.terminal; },
          [](std::string& out, const write_op& op) {
            out += "{\"id\":";
            append_json_string(out, op.row.id);
            put(out, "status_reason", op.row.status_reason);
            put_json(out, "score", op.row.score);
            out.push_back('}');
          });
      prepare("parley_update", update_sql);
      prepare("parley_finish", finish_sql);
      prepare("parley_channel", channel_upsert_sql);
      prepare("parley_channel_event", channel_event_sql);
      pqxx::work w{*conn_};
      check_fence(w);
      const auto owner = owner_of();
      for (const auto& x : channels.rows)
        w.exec_prepared("parley_channel", x.channel_id, x.demand_id,
                        x.parent_channel_id, x.depth, x.status, x.round,
                        proposal_json(x), x.responses, x.feedback, x.created_at,
                        x.updated_at, owner);
      for (const auto& e : channels.events)
        w.exec_prepared("parley_channel_event", e.channel_id, e.seq, type_name(e.kind),
                        e.at_ms, pqxx::binarystring{channels.body(e), e.body_size});
      copy_inserts(w, ops, owner);
      if (updates.size() > 2)
        w.exec_prepared("parley_update", updates);
      if (finishes.size() > 2)
        w.exec_prepared("parley_finish", finishes);
      w.commit();
    });
  }

  bool get(const std::string& id, negotiation_row& out) override {
    if (!is_uuid(id))
      return false;
    return guarded_read("get", [&] {
      prepare("parley_get",
              std::string{"SELECT "} + pg_row_columns + " WHERE n.id = $1::uuid");
      pqxx::read_transaction w{*conn_};
      auto r = w.exec_prepared("parley_get", id);
      if (r.empty())
        return false;
      out = read_row(r[0]);
      return true;
    });
  }

  std::vector<negotiation_row> query(const messages::store_query& q) override {
    auto where = where_of(q, dialect::postgresql);
    auto sql = page_sql(pg_row_columns, where, limit_of(q));
    return guarded_read("query", [&] {
      auto name = "parley_q" + std::to_string(std::hash<std::string>{}(sql));
      prepare(name, sql);
      pqxx::read_transaction w{*conn_};
      auto r = w.exec_prepared(name, pqxx::prepare::make_dynamic_params(where.params));
      std::vector<negotiation_row> rows;
      for (const auto& x : r)
        rows.push_back(read_row(x));
      return rows;
    });
  }

  messages::store_stats stats(std::int32_t top) override {
    return guarded_read("stats", [&] {
      messages::store_stats out;
      // One snapshot for every figure.
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> w{*conn_};
      for (const auto& r : w.exec(
               "SELECT initiator_did, "
               "COUNT(*) FILTER (WHERE state = 'accepted') as accepted, "
               "COUNT(*) FILTER (WHERE state = 'rejected') as rejected, "
               "COUNT(*) FILTER (WHERE state = 'expired') as expired, "
               "ROUND(COUNT(*) FILTER (WHERE state = 'accepted')::numeric / "
               "NULLIF(COUNT(*), 0) * 100, 2)::float8 as success_rate_pct "
               "FROM negotiations WHERE created_at > NOW() - INTERVAL '30 days' "
               "GROUP BY initiator_did ORDER BY success_rate_pct DESC, initiator_did"))
        out.success_by_agent.push_back({r[0].as<std::string>(), r[1].as<std::int64_t>(),
                                        r[2].as<std::int64_t>(), r[3].as<std::int64_t>(),
                                        r[4].as<double>()});
      for (const auto& r :
           w.exec("SELECT state, AVG(jsonb_array_length(rounds))::float8 as avg_rounds "
                  "FROM negotiations WHERE state IN ('accepted', 'rejected') "
                  "AND created_at > NOW() - INTERVAL '7 days' GROUP BY state ORDER BY state"))
        out.rounds_by_outcome.push_back({r[0].as<std::string>(), r[1].as<double>()});
      for (const auto& r : w.exec(
               "SELECT state, COUNT(*) as count, "
               "AVG(EXTRACT(EPOCH FROM (NOW() - created_at)))::float8 as avg_age_seconds "
               "FROM negotiations WHERE created_at > NOW() - INTERVAL '24 hours' "
               "GROUP BY state ORDER BY state"))
        out.current.push_back(
            {r[0].as<std::string>(), r[1].as<std::int64_t>(), r[2].as<double>()});
      auto e = w.exec1("SELECT COUNT(*) FILTER (WHERE state = 'expired') as expired, "
                       "COUNT(*) FILTER (WHERE state IN ('accepted', 'rejected')) "
                       "as completed, "
                       "ROUND(COUNT(*) FILTER (WHERE state = 'expired')::numeric / "
                       "NULLIF(COUNT(*), 0) * 100, 2)::float8 as expiration_rate_pct "
                       "FROM negotiations WHERE created_at > NOW() - INTERVAL '7 days'");
      out.expiration.expired = e[0].as<std::int64_t>();
      out.expiration.completed = e[1].as<std::int64_t>();
      if (!e[2].is_null())
        out.expiration.expiration_rate_pct = e[2].as<double>();
      // The original query's ARRAY_LENGTH(rounds::jsonb, 1) is refused by PostgreSQL
      // for JSONB: jsonb_array_length is what it means
      // (docs/protocols/record-and-schema.md, "Monitoring queries").
      for (const auto& r : w.exec_params(
               "SELECT id::text, initiator_did, responder_did, convergence_score::float8, "
               "jsonb_array_length(rounds) as round_count FROM negotiations "
               "WHERE state = 'counter_proposed' AND convergence_score > 0.8 "
               "ORDER BY convergence_score DESC LIMIT $1",
               top))
        out.high_convergence.push_back({r[0].as<std::string>(), r[1].as<std::string>(),
                                        r[2].as<std::string>(), r[3].as<double>(),
                                        r[4].as<std::int32_t>()});
      out.outcomes = outcome_figures(w);
      w.commit();
      return out;
    });
  }

  /// The outcome figures (docs/protocols/record-and-schema.md, "Outcome
  /// figures"), in the caller's snapshot.
  template <class Transaction>
  messages::outcome_figures outcome_figures(Transaction& w) {
    auto counts = w.exec1(outcome_counts_sql(dialect::postgresql));
    auto out = outcome_figures_of(
        counts[0].template as<std::int64_t>(), counts[1].template as<std::int64_t>(),
        [&](agreement_measure measure, std::int64_t offset) {
          auto r =
              w.exec_params(agreed_measure_sql(measure, dialect::postgresql), offset);
          return r.empty() || r[0][0].is_null() ? 0.0 : r[0][0].template as<double>();
        });
    auto row = w.exec1(score_means_sql(dialect::postgresql));
    std::array<double, score_mean_count> means{};
    for (std::size_t i = 0; i < means.size(); ++i) {
      const auto& field = row[static_cast<pqxx::row::size_type>(i + 1)];
      means[i] = field.is_null() ? std::nan("") : field.template as<double>();
    }
    out.scores = score_means_of(row[0].template as<std::int64_t>(), means);
    return out;
  }

  std::int64_t expire() override {
    return guarded("expire", [&] {
      pqxx::work w{*conn_};
      auto n = w.exec1("SELECT expire_stale_negotiations()")[0].as<std::int64_t>();
      w.commit();
      return n;
    });
  }

  std::int64_t archive(std::int32_t days) override {
    return guarded("archive", [&] {
      pqxx::work w{*conn_};
      // One statement: exactly the rows deleted are the rows archived.
      auto r = w.exec_params(
          "WITH moved AS (DELETE FROM negotiations "
          "WHERE created_at < NOW() - make_interval(days => $1) "
          "AND state IN ('accepted', 'rejected', 'expired') RETURNING *) "
          "INSERT INTO negotiations_archive SELECT * FROM moved",
          days);
      w.commit();
      return static_cast<std::int64_t>(r.affected_rows());
    });
  }

  std::vector<negotiation_row> load_open(const std::string& cursor,
                                         std::int32_t limit) override {
    // A fenced connection of a node that has not joined owns nothing yet.
    if (fence_ && owner_of() == 0)
      return {};
    where_clause where;
    auto sql = open_page_sql(pg_row_columns, cursor, limit, dialect::postgresql, where,
                             owner_of());
    return guarded_read("load_open", [&] {
      auto name = "parley_o" + std::to_string(std::hash<std::string>{}(sql));
      prepare(name, sql);
      pqxx::read_transaction w{*conn_};
      std::vector<negotiation_row> rows;
      for (const auto& r :
           w.exec_prepared(name, pqxx::prepare::make_dynamic_params(where.params)))
        rows.push_back(read_row(r));
      return rows;
    });
  }

  const std::vector<migration>& migrations() const override {
    return postgresql_migrations();
  }

  // The agents and rooms (migration 002): one statement each, in a
  // transaction of its own.

  void put_entry(registry kind, const registry_row& row) override {
    guarded("put_entry", [&] {
      auto name = prepared_registry(upsert_sql(kind, dialect::postgresql));
      pqxx::work w{*conn_};
      check_fence(w);
      w.exec_prepared(name, row.id, row.json);
      w.commit();
    });
  }

  bool delete_entry(registry kind, const std::string& id) override {
    return guarded("delete_entry", [&] {
      auto name = prepared_registry(delete_sql(kind, dialect::postgresql));
      pqxx::work w{*conn_};
      check_fence(w);
      auto r = w.exec_prepared(name, id);
      w.commit();
      return r.affected_rows() > 0;
    });
  }

  std::vector<registry_row> load_entries(registry kind, const std::string& after,
                                         std::int32_t limit) override {
    return guarded_read("load_entries", [&] {
      auto name = prepared_registry(load_sql(kind, dialect::postgresql));
      pqxx::read_transaction w{*conn_};
      std::vector<registry_row> rows;
      for (const auto& r : w.exec_prepared(name, after, limit))
        rows.push_back({r[0].as<std::string>(), r[1].as<std::string>()});
      return rows;
    });
  }

  bool get_entry(registry kind, const std::string& id, registry_row& out) override {
    return guarded_read("get_entry", [&] {
      auto name = prepared_registry(get_sql(kind, dialect::postgresql));
      pqxx::read_transaction w{*conn_};
      auto r = w.exec_prepared(name, id);
      if (r.empty())
        return false;
      out = {r[0][0].as<std::string>(), r[0][1].as<std::string>()};
      return true;
    });
  }

  bool get_channel(const std::string& id, messages::channel_record& out) override {
    return guarded_read("get_channel", [&] {
      prepare("parley_get_channel",
              std::string{pg_channel_columns} + " WHERE channel_id = $1");
      pqxx::read_transaction w{*conn_};
      auto r = w.exec_prepared("parley_get_channel", id);
      if (r.empty())
        return false;
      out = read_channel(r[0]);
      return true;
    });
  }

  std::vector<messages::channel_record>
  demand_channels(const std::string& demand_id) override {
    return guarded_read("demand_channels", [&] {
      prepare("parley_demand_channels",
              std::string{pg_channel_columns} +
                  " WHERE demand_id = $1 ORDER BY created_at, channel_id");
      pqxx::read_transaction w{*conn_};
      std::vector<messages::channel_record> rows;
      for (const auto& r : w.exec_prepared("parley_demand_channels", demand_id))
        rows.push_back(read_channel(r));
      return rows;
    });
  }

  std::vector<messages::channel_event> channel_events(const std::string& id) override {
    return guarded_read("channel_events", [&] {
      prepare("parley_channel_events",
              "SELECT body, event::text FROM channel_events WHERE channel_id = $1 "
              "ORDER BY seq");
      pqxx::read_transaction w{*conn_};
      std::vector<messages::channel_event> out;
      for (const auto& r : w.exec_prepared("parley_channel_events", id))
        out.push_back(read_channel_event(r, 0));
      return out;
    });
  }

  std::vector<messages::channel_event> open_channel_events() override {
    return guarded_read("open_channel_events", [&] {
      pqxx::read_transaction w{*conn_};
      std::vector<messages::channel_event> out;
      for (const auto& r :
           w.exec(std::string{"SELECT e.body, e.event::text FROM channel_events e JOIN "
                              "channels c ON c.channel_id = e.channel_id WHERE "} +
                  open_channels("c.status", dialect::postgresql) +
                  (fence_ ? " AND c.owner = " + std::to_string(owner_of()) : "") +
                  " ORDER BY c.created_at, c.channel_id, e.seq"))
        out.push_back(read_channel_event(r, 0));
      return out;
    });
  }

  // The members of clusters (migration 008).

  std::int64_t join(const member_join& j) override {
    check_lease(j.lease_ms);
    return guarded("join", [&] {
      pqxx::work w{*conn_};
      w.exec(lock_members_sql());
      w.exec_params(supersede_sql(dialect::postgresql), j.cluster, j.node_id);
      auto incarnation =
          w.exec_params1(join_sql(dialect::postgresql), j.cluster, j.node_id,
                         j.api_address, j.node_address, j.lease_ms)[0]
              .as<std::int64_t>();
      // Held by this connection's session while it lives, from before the
      // row is seen: a take-over that can take it knows the session ended.
      w.exec_params(hold_member_lock_sql(), incarnation);
      w.commit();
      return incarnation;
    });
  }

  bool heartbeat(const member_key& k, std::int64_t lease_ms) override {
    check_lease(lease_ms);
    return guarded("heartbeat", [&] {
      prepare("parley_heartbeat", heartbeat_sql(dialect::postgresql));
      pqxx::work w{*conn_};
      auto r = w.exec_prepared("parley_heartbeat", k.cluster, k.node_id, k.incarnation,
                               lease_ms);
      w.commit();
      return r.affected_rows() == 1;
    });
  }

  bool leave(const member_key& k) override {
    return guarded("leave", [&] {
      pqxx::work w{*conn_};
      auto r = w.exec_params(leave_sql(dialect::postgresql), k.cluster, k.node_id,
                             k.incarnation);
      w.commit();
      return r.affected_rows() == 1;
    });
  }

  std::string owner_address(const std::string& id) override {
    return is_uuid(id) ? address_of_owner("owner_address", owner_address_sql, id)
                       : std::string{};
  }

  std::string channel_owner_address(const std::string& id) override {
    return id.empty() ? std::string{}
                      : address_of_owner("channel_owner_address",
                                         channel_owner_address_sql, id);
  }

  void fence_with(std::shared_ptr<const member_fence> fence) override {
    fence_ = std::move(fence);
  }

  take_over_report take_over(const member_key& me, bool unowned,
                             std::int64_t wait_ms) override {
    return guarded("take_over", [&] {
      take_over_report out;
      pqxx::work w{*conn_};
      w.exec(lock_members_for_sql(wait_ms));
      // A taker that holds no lease takes nothing (its heartbeat tells it).
      if (w.exec_params(fence_sql(), me.incarnation, me.cluster,
                        std::to_string(4 * wait_ms))
              .empty())
        return out;
      for (const auto& r :
           w.exec_params(take_members_sql(), me.cluster, me.incarnation))
        out.incarnations.push_back(r[0].as<std::int64_t>());
      if (out.incarnations.empty() && !unowned) {
        w.commit();
        return out;
      }
      std::string taken = "{";
      for (auto k : out.incarnations)
        taken += (taken.size() > 1 ? "," : "") + std::to_string(k);
      taken += "}";
      out.negotiations = static_cast<std::int64_t>(
          w.exec_params(take_negotiations_sql(), me.incarnation, taken, unowned)
              .affected_rows());
      out.channels = static_cast<std::int64_t>(
          w.exec_params(take_channels_sql(), me.incarnation, taken, unowned)
              .affected_rows());
      w.commit();
      return out;
    });
  }

  std::vector<member_row> members(const std::string& cluster) override {
    return guarded_read("members", [&] {
      pqxx::read_transaction w{*conn_};
      std::vector<member_row> rows;
      for (const auto& r : w.exec_params(members_sql(dialect::postgresql), cluster)) {
        member_row m;
        m.key = {r[0].as<std::string>(), r[1].as<std::string>(),
                 r[2].as<std::int64_t>()};
        m.api_address = r[3].as<std::string>();
        m.node_address = r[4].as<std::string>();
        m.status = stored_status(r[5].as<std::string>());
        m.joined_at = r[6].as<std::int64_t>();
        m.heartbeat_at = r[7].as<std::int64_t>();
        m.lease_until = r[8].as<std::int64_t>();
        m.lease_age_ms = r[9].as<std::int64_t>();
        m.taken_over_by = r[10].as<std::int64_t>();
        m.negotiations = r[11].as<std::int64_t>();
        m.rooms = r[12].as<std::int64_t>();
        m.channels = r[13].as<std::int64_t>();
        rows.push_back(std::move(m));
      }
      return rows;
    });
  }

  int applied_version() override {
    return guarded_read("read", [&] {
      pqxx::read_transaction w{*conn_};
      return w.exec1("SELECT coalesce(max(version), 0) FROM schema_migrations")[0]
          .as<int>();
    });
  }

  bool holds_store() override {
    return guarded_read("read", [&] {
      pqxx::read_transaction w{*conn_};
      if (w.exec1("SELECT to_regclass('schema_migrations') IS NULL")[0].as<bool>())
        return false;
      return w.exec1("SELECT coalesce(max(version), 0) FROM schema_migrations")[0]
                 .as<int>() > 0;
    });
  }

  std::string cannot_write() override {
    // A standby, or a server (or role) that makes every transaction
    // read-only: each commit of the writer would fail.
    auto read_only = guarded_read("read", [&] {
      pqxx::nontransaction w{*conn_};
      return w
          .exec1("SELECT pg_is_in_recovery() OR "
                 "current_setting('default_transaction_read_only') = 'on'")[0]
          .as<bool>();
    });
    return read_only ? "the PostgreSQL session is read-only (a standby, or "
                       "default_transaction_read_only is on)"
                     : std::string{};
  }

private:
  /// The incarnation this connection writes as; 0 when it is not fenced.
  std::int64_t owner_of() const { return fence_ ? fence_->incarnation() : 0; }

  /// Throws store_error, before `w` writes anything, when this connection is
  /// fenced and its incarnation holds no lease (or none yet): the row the
  /// check reads stays locked FOR SHARE until `w` ends (fence_sql).
  void check_fence(pqxx::work& w) {
    if (!fence_)
      return;
    auto incarnation = fence_->incarnation();
    if (incarnation == 0)
      throw store_error("this node has not joined cluster " + fence_->cluster() +
                        " yet: its writes wait for its incarnation");
    prepare("parley_fence", fence_sql());
    if (w.exec_prepared("parley_fence", incarnation, fence_->cluster(),
                        std::to_string(fence_->lease_ms()))
            .empty())
      throw store_error("incarnation " + std::to_string(incarnation) + " of cluster " +
                        fence_->cluster() +
                        " holds no lease (it lapsed, or the node was taken over): "
                        "its writes are refused (docs/cluster.md, \"Fencing\")");
  }

  /// Runs `f`, turning every database failure into a store_error.
  template <class F> auto guarded(const char* what, F f) -> decltype(f()) {
    try {
      return f();
    } catch (const store_error&) {
      throw;
    } catch (const query_error&) {
      throw;
    } catch (const pqxx::broken_connection& e) {
      prepared_.clear();
      throw store_error(std::string{"PostgreSQL "} + what + ": connection lost: " + e.what());
    } catch (const std::exception& e) {
      throw store_error(std::string{"PostgreSQL "} + what + ": " + e.what());
    }
  }

  /// A read, tried once more when it finds the connection lost: libpqxx
  /// reconnects on the use after the one that found it broken, so a server
  /// that came back answers at once (reads are safe to repeat; writes are
  /// not, the store writes a failed batch again itself).
  template <class F> auto guarded_read(const char* what, F f) -> decltype(f()) {
    return guarded(what, [&] {
      try {
        return f();
      } catch (const pqxx::broken_connection&) {
        prepared_.clear();
        return f();
      }
    });
  }

  /// The node address that `sql()` (parameters: the id of what is owned,
  /// this node's incarnation) reads for `id`, as statement `what`; empty
  /// without a fence or a row.
  std::string address_of_owner(const std::string& what, std::string (*sql)(),
                               const std::string& id) {
    if (!fence_)
      return {};
    return guarded_read(what.c_str(), [&] {
      auto name = "parley_" + what;
      prepare(name, sql());
      pqxx::read_transaction w{*conn_};
      auto r = w.exec_prepared(name, id, owner_of());
      return r.empty() ? std::string{} : r[0][0].as<std::string>();
    });
  }

  void prepare(const std::string& name, const std::string& sql) {
    if (prepared_.insert(name).second)
      conn_->prepare(name, sql);
  }

  void ensure_migrations_table() {
    pqxx::work w{*conn_};
    w.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
           "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT NOW())");
    w.commit();
  }

  /// What `verify` finds missing of migration 002's tables.
  static void verify_registry(pqxx::read_transaction& w, std::vector<std::string>& missing) {
    for (const auto& table : registry_tables()) {
      std::map<std::string, found_column> found;
      for (const auto& r : w.exec_params(
               "SELECT column_name, data_type, is_nullable = 'NO', "
               "column_default IS NOT NULL FROM information_schema.columns "
               "WHERE table_schema = current_schema() AND table_name = $1",
               std::string{table.name}))
        found[r[0].as<std::string>()] = {r[1].as<std::string>(), r[2].as<bool>(),
                                         r[3].as<bool>()};
      auto has_check =
          w.exec_params1("SELECT count(*) FROM pg_constraint c "
                         "JOIN pg_class t ON t.oid = c.conrelid "
                         "JOIN pg_namespace s ON s.oid = t.relnamespace "
                         "WHERE s.nspname = current_schema() AND t.relname = $1 "
                         "AND c.conname = $2",
                         std::string{table.name}, std::string{table.check})[0]
              .as<int>() > 0;
      compare_table(table, found, has_check, true, missing);
    }
  }

  /// The name of registry statement `sql`, prepared on first use.
  std::string prepared_registry(const std::string& sql) {
    auto name = "parley_r" + std::to_string(std::hash<std::string>{}(sql));
    prepare(name, sql);
    return name;
  }

  std::unique_ptr<pqxx::connection> conn_;
  std::set<std::string> prepared_;
  std::shared_ptr<const member_fence> fence_;
};

} // namespace

std::unique_ptr<backend> open_postgresql(const std::string& uri) {
  return std::make_unique<postgresql_backend>(uri);
}

} // namespace parley::actors::store
