#include "actors/store/query.hpp"

#include <algorithm>
#include <cmath>

#include "actors/store/backend.hpp"
#include "actors/store/iso_time.hpp"
#include "actors/store/seed_state.hpp"

namespace parley::actors::store {

namespace {

class builder {
public:
  explicit builder(dialect d) : d_(d) {}

  /// Adds `param` and returns its placeholder, cast to `pg_type` in
  /// PostgreSQL.
  std::string bind(std::string param, const char* pg_type = nullptr) {
    out_.params.push_back(std::move(param));
    auto n = std::to_string(out_.params.size());
    if (d_ == dialect::sqlite)
      return "?" + n;
    auto p = "$" + n;
    return pg_type != nullptr ? p + "::" + pg_type : p;
  }

  void add(const std::string& condition) {
    out_.sql += out_.sql.empty() ? " WHERE " : " AND ";
    out_.sql += condition;
  }

  where_clause take() { return std::move(out_); }

  dialect d() const noexcept { return d_; }

private:
  dialect d_;
  where_clause out_;
};

/// Reads a cursor of `cursor_after` into its time and id. Throws query_error
/// when it is not one.
void parse_cursor(const std::string& cursor, std::int64_t& ms, std::string& id) {
  auto sep = cursor.find('_');
  bool ok = sep != std::string::npos && sep > 0;
  if (ok) {
    id = cursor.substr(sep + 1);
    auto head = cursor.substr(0, sep);
    ok = is_uuid(id) && head.find_first_not_of("0123456789") == std::string::npos &&
         head.size() < 16;
    if (ok)
      ms = std::stoll(head);
  }
  if (!ok)
    throw query_error("cursor \"" + cursor + "\" is not one this store gave");
}

} // namespace


std::int32_t limit_of(const messages::store_query& q) {
  if (q.limit < 1)
    throw query_error("limit must be at least 1, got " + std::to_string(q.limit));
  return q.limit > messages::store_query::max_limit ? messages::store_query::max_limit
                                                    : q.limit;
}

std::string page_sql(const char* columns_from, const where_clause& where,
                     std::int32_t limit) {
  return std::string{"SELECT "} + columns_from + where.sql +
         " ORDER BY n.created_at DESC, n.id DESC LIMIT " + std::to_string(limit + 1);
}

std::string cursor_after(std::int64_t created_at_ms, const std::string& id) {
  return std::to_string(created_at_ms) + "_" + id;
}

namespace {

/// `column` is none of `ended` (three quoted SQL strings), as the dialect's
/// partial index of open rows spells it. Both spellings for SQLite: it uses
/// a partial index only for a query that spells its condition as the index
/// does; migrations 001 and 003 now write it as comparisons, and stores
/// created before that change have the list.
std::string none_of(const std::string& column, const char* const (&ended)[3],
                    dialect d) {
  auto listed =
      column + " NOT IN (" + ended[0] + ", " + ended[1] + ", " + ended[2] + ")";
  if (d == dialect::postgresql)
    return listed;
  std::string out;
  for (const char* x : ended)
    out += column + " <> " + x + " AND ";
  return out + listed;
}

} // namespace

std::string outcome_counts_sql(dialect d) {
  return std::string{"SELECT COUNT(*) FILTER (WHERE state IN ('accepted', 'rejected', "
                     "'expired')), COUNT(*) FILTER (WHERE state = 'accepted') "
                     "FROM negotiations WHERE created_at > "} +
         (d == dialect::sqlite ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-7 days')"
                               : "NOW() - INTERVAL '7 days'");
}

std::string agreed_measure_sql(agreement_measure measure, dialect d) {
  const bool sqlite = d == dialect::sqlite;
  // The accepting round is the record's last (docs/protocols/bilateral.md,
  // "Accept"); its timestamp is an ISO 8601 text in the rounds array.
  std::string value;
  if (measure == agreement_measure::rounds)
    value = sqlite ? "json_array_length(rounds)" : "jsonb_array_length(rounds)";
  else
    value = sqlite ? "(julianday(json_extract(rounds, '$[#-1].timestamp')) - "
                     "julianday(created_at)) * 86400.0"
                   : "EXTRACT(EPOCH FROM ((rounds->-1->>'timestamp')::timestamptz - "
                     "created_at))::float8";
  return "SELECT " + value +
         " AS measure FROM negotiations WHERE state = 'accepted' AND created_at > " +
         (sqlite ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-7 days')"
                 : "NOW() - INTERVAL '7 days'") +
         " ORDER BY measure LIMIT 1 OFFSET " + (sqlite ? "?1" : "$1");
}

std::int64_t nearest_rank_offset(std::int64_t n, double p) {
  auto rank = static_cast<std::int64_t>(std::ceil(p * static_cast<double>(n) - 1e-9));
  return std::clamp<std::int64_t>(rank, 1, n) - 1;
}

messages::outcome_figures outcome_figures_of(
    std::int64_t ended, std::int64_t agreed,
    const std::function<double(agreement_measure, std::int64_t)>& value_at) {
  messages::outcome_figures out;
  out.ended = ended;
  out.agreed = agreed;
  if (ended > 0)
    out.agreement_rate_pct =
        static_cast<double>(agreed) * 100.0 / static_cast<double>(ended);
  if (agreed == 0)
    return out;
  auto at = [&](agreement_measure measure, double p) {
    return value_at(measure, nearest_rank_offset(agreed, p));
  };
  out.rounds_to_agreement = messages::percentiles{at(agreement_measure::rounds, 0.5),
                                                  at(agreement_measure::rounds, 0.9)};
  out.seconds_to_agreement = messages::percentiles{at(agreement_measure::seconds, 0.5),
                                                   at(agreement_measure::seconds, 0.9)};
  return out;
}

std::string score_means_sql(dialect d) {
  const bool sqlite = d == dialect::sqlite;
  // One number of the score JSON, by its path of keys.
  auto number = [sqlite](const char* key, const char* inner = nullptr) {
    if (sqlite)
      return std::string{"json_extract(r.score, '$."} + key +
             (inner != nullptr ? std::string{"."} + inner : std::string{}) + "')";
    return std::string{"(r.score->"} +
           (inner != nullptr ? std::string{"'"} + key + "'->>'" + inner + "'"
                             : std::string{">'"} + key + "'") +
           ")::float8";
  };
  return "SELECT COUNT(*), AVG(" + number("utilities", "initiator") + "), AVG(" +
         number("utilities", "responder") + "), AVG(" +
         number("advantages", "initiator") + "), AVG(" +
         number("advantages", "responder") + "), AVG(" + number("welfare") + "), AVG(" +
         number("nash_distance") + "), AVG(" + number("pareto_distance") +
         ") FROM negotiations n JOIN negotiation_runtime r ON r.negotiation_id = n.id "
         "WHERE r.score IS NOT NULL AND n.created_at > " +
         (sqlite ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-7 days')"
                 : "NOW() - INTERVAL '7 days'");
}

caf::optional<messages::score_means>
score_means_of(std::int64_t count, const std::array<double, score_mean_count>& means) {
  if (count == 0)
    return caf::none;
  auto mean = [&](std::size_t i) {
    return std::isnan(means[i]) ? 0.0 : means[i];
  };
  auto maybe = [&](std::size_t i) -> caf::optional<double> {
    if (std::isnan(means[i]))
      return caf::none;
    return means[i];
  };
  messages::score_means out;
  out.negotiations = count;
  out.mean_utility = {mean(0), mean(1)};
  out.mean_advantage = {mean(2), mean(3)};
  out.mean_welfare = mean(4);
  out.mean_nash_distance = maybe(5);
  out.mean_pareto_distance = maybe(6);
  return out;
}

std::string open_states(const char* column, dialect d) {
  static const char* const ended[] = {"'accepted'", "'rejected'", "'expired'"};
  return none_of(column, ended, d);
}

std::string open_channels(const char* column, dialect d) {
  static const char* const ended[] = {"'finalized'", "'force_finalized'", "'failed'"};
  return none_of(column, ended, d);
}

where_clause where_of(const messages::store_query& q, dialect d) {
  builder b{d};
  if (!q.initiator.empty())
    b.add("n.initiator_did = " + b.bind(q.initiator));
  if (!q.responder.empty())
    b.add("n.responder_did = " + b.bind(q.responder));
  if (!q.state.empty()) {
    seed_state s;
    if (!from_string(q.state, s))
      throw query_error("state must be one of initiated, proposed, counter_proposed, "
                        "accepted, rejected, expired; got \"" +
                        q.state + "\"");
    b.add("n.state = " + b.bind(q.state));
  }
  if (q.active_only)
    b.add(open_states("n.state", d));
  if (!q.intent_id.empty()) {
    if (!is_uuid(q.intent_id))
      throw query_error("intent_id must be a UUID, got \"" + q.intent_id + "\"");
    b.add("n.intent_id = " + b.bind(q.intent_id, "uuid"));
  }
  if (q.min_convergence) {
    auto x = *q.min_convergence;
    if (!std::isfinite(x) || x < 0 || x > 1)
      throw query_error("min_convergence must be between 0 and 1");
    b.add("n.convergence_score > " + b.bind(std::to_string(x), "numeric"));
  }
  if (!q.cursor.empty()) {
    std::int64_t ms = 0;
    std::string id;
    parse_cursor(q.cursor, ms, id);
    auto at = b.bind(to_iso(ms), "timestamptz");
    auto at_again = b.bind(to_iso(ms), "timestamptz");
    auto after = b.bind(id, "uuid");
    b.add("(n.created_at < " + at + " OR (n.created_at = " + at_again +
          " AND n.id < " + after + "))");
  }
  return b.take();
}

std::string open_page_sql(const char* columns_from, const std::string& cursor,
                          std::int32_t limit, dialect d, where_clause& where,
                          std::int64_t owner) {
  builder b{d};
  b.add(open_states("n.state", d));
  if (owner != 0)
    b.add("r.owner = " + b.bind(std::to_string(owner), "bigint"));
  if (!cursor.empty()) {
    std::int64_t ms = 0;
    std::string id;
    parse_cursor(cursor, ms, id);
    auto at = b.bind(to_iso(ms), "timestamptz");
    auto after = b.bind(id, "uuid");
    // A row value: with the index on (expires_at, id) (migration 006) the
    // page starts where the last one ended, however many rows share an
    // expires_at.
    b.add("(n.expires_at, n.id) > (" + at + ", " + after + ")");
  }
  where = b.take();
  return std::string{"SELECT "} + columns_from + where.sql +
         " ORDER BY n.expires_at, n.id LIMIT " + std::to_string(limit + 1);
}

} // namespace parley::actors::store
