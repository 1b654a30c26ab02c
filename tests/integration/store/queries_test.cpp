// The query patterns, monitoring queries, expiry and archive
// (docs/protocols/record-and-schema.md) on a seeded data set, on both back ends; on
// PostgreSQL each pattern uses its index.

#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "actors/store/backend.hpp"
#include "actors/store/batch.hpp"
#include "actors/store/query.hpp"
#include "actors/store/row.hpp"
#include "messages/json.hpp"
#include "support/store_backends.hpp"

namespace integration_store_queries_test {

using namespace parley::test;
namespace store = parley::actors::store;
namespace msg = parley::messages;

namespace {

/// The test's "now", read once: the data set is built more than once.
std::int64_t now_ms() {
  static const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count();
  return now;
}

/// Negotiation i: `rounds` rounds, ending in `status`, created `age_ms` ago.
msg::negotiation_record record(int i, const std::string& initiator,
                               const std::string& responder, msg::negotiation_status status,
                               int rounds, double score, std::int64_t age_ms,
                               std::int64_t expires_in_ms = 3'600'000) {
  msg::negotiation_record r;
  r.id = uuid(i);
  r.room_id = "room-" + std::to_string(i);
  r.intent_id = uuid(1000 + i % 3);
  r.initiator = initiator;
  r.responder = responder;
  r.status = status;
  r.created_at = now_ms() - age_ms;
  r.updated_at = r.created_at;
  r.expires_at = r.created_at + age_ms + expires_in_ms;
  r.convergence_score = score;
  for (int k = 1; k <= rounds; ++k) {
    msg::proposal p;
    p.amount = 10000 - 500 * k;
    r.rounds.push_back({k, k % 2 == 1 ? initiator : responder, p,
                        k == 1 ? msg::round_action::propose : msg::round_action::counter, "",
                        r.created_at + k, "m" + std::to_string(k)});
  }
  r.current_proposal = r.rounds.back().proposal;
  if (status == msg::negotiation_status::accepted)
    r.final_proposal = r.current_proposal;
  return r;
}

using st = msg::negotiation_status;
constexpr std::int64_t hour = 3'600'000;
constexpr std::int64_t day = 24 * hour;

/// The seeded data set: what each query below must find.
std::vector<msg::negotiation_record> data_set() {
  const std::string alice = "did:key:alice", bob = "did:key:bob", carol = "did:key:carol";
  return {
      record(1, alice, bob, st::proposed, 1, 0.0, 10 * 60'000),           // initiated
      record(2, alice, bob, st::countering, 2, 0.5, 9 * 60'000),          // proposed
      record(3, alice, carol, st::countering, 3, 0.9, 8 * 60'000),        // counter_proposed
      record(4, bob, carol, st::countering, 5, 0.85, 7 * 60'000),         // counter_proposed
      record(5, alice, bob, st::accepted, 4, 1.0, 2 * hour),              // accepted
      record(6, alice, carol, st::rejected, 2, 0.3, 3 * hour),            // rejected
      record(7, bob, alice, st::expired, 1, 0.0, 2 * day),                // expired
      record(8, carol, bob, st::countering, 3, 0.95, 5 * 60'000, -60'000), // stale
      record(9, carol, alice, st::accepted, 4, 1.0, 100 * day),           // archivable
  };
}

/// Writes `records` as new negotiations, in one transaction.
void write_new(store::backend& db,
               const std::vector<msg::negotiation_record>& records) {
  store::batch b;
  for (auto& r : records) {
    msg::negotiation_event e;
    e.kind = msg::negotiation_event_kind::started;
    e.negotiation_id = r.id;
    e.record = msg::shared_record{r};
    b.add(e);
  }
  db.write(b.take(), {});
}

std::vector<std::string> ids(const std::vector<store::negotiation_row>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows)
    out.push_back(r.id);
  return out;
}

/// The ids of every open negotiation, read page by page (`limit` a page)
/// as crash recovery reads them.
std::vector<std::string> open_ids(store::backend& db, std::int32_t limit) {
  std::vector<std::string> out;
  std::string cursor;
  for (int page = 0; page < 100; ++page) {
    auto rows = db.load_open(cursor, limit);
    REQUIRE(rows.size() <= static_cast<std::size_t>(limit) + 1);
    auto more = rows.size() > static_cast<std::size_t>(limit);
    if (more)
      rows.pop_back();
    for (const auto& r : rows)
      out.push_back(r.id);
    if (!more)
      break;
    cursor = store::cursor_after(rows.back().expires_at, rows.back().id);
  }
  return out;
}

std::unique_ptr<store::backend> open_migrated(const store_target& t) {
  store::store_url url;
  REQUIRE(store::parse_store_url(t.url, url).empty());
  auto db = store::open_backend(url);
  db->migrate();
  return db;
}

std::unique_ptr<store::backend> open_seeded(const store_target& t) {
  auto db = open_migrated(t);
  write_new(*db, data_set());
  return db;
}

/// Each of `records` reads back from `db` as it was written.
void check_reads_back(store::backend& db,
                      const std::vector<msg::negotiation_record>& records) {
  for (const auto& r : records) {
    store::negotiation_row row;
    REQUIRE(db.get(r.id, row));
    auto back = store::from_row(row);
    back.updated_at = r.updated_at; // the trigger's, on PostgreSQL
    INFO(nlohmann::json(back).dump() << "\n" << nlohmann::json(r).dump());
    CHECK(back == r);
  }
}

/// Each pattern's plan (`explain` followed by its SQL) names its index.
void check_plans(const store_target& t, const std::string& explain,
                 const std::vector<std::pair<std::string, std::string>>& patterns) {
  for (const auto& [index, sql] : patterns) {
    auto r = t.exec(explain + sql + ";");
    INFO(sql << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains(index));
  }
}

} // namespace

TEST_CASE("the query patterns return the right rows, newest first",
          "[integration]") {
  for_each_store("queries", [](const store_target& t) {
    INFO(t.kind);
    auto db = open_seeded(t);
    msg::store_query q;
    q.initiator = "did:key:alice";
    q.active_only = true;
    CHECK(ids(db->query(q)) == std::vector<std::string>{uuid(3), uuid(2), uuid(1)});
    q = {};
    q.responder = "did:key:carol";
    q.active_only = true;
    CHECK(ids(db->query(q)) == std::vector<std::string>{uuid(4), uuid(3)});
    q = {};
    q.state = "counter_proposed";
    q.min_convergence = 0.8;
    CHECK(ids(db->query(q)) == std::vector<std::string>{uuid(8), uuid(4), uuid(3)});
    q = {};
    q.intent_id = uuid(1000);
    CHECK(ids(db->query(q)) == std::vector<std::string>{uuid(3), uuid(6), uuid(9)});
    q = {};
    q.state = "proposed";
    CHECK(ids(db->query(q)) == std::vector<std::string>{uuid(2)});
    q.state = "countering";
    CHECK_THROWS_AS(db->query(q), store::query_error);
    q = {};
    q.intent_id = "intent-7";
    CHECK_THROWS_AS(db->query(q), store::query_error);
  });
}

TEST_CASE("a cursor pages through every row once, newest first", "[integration]") {
  for_each_store("pages", [](const store_target& t) {
    INFO(t.kind);
    auto db = open_seeded(t);
    msg::store_query q;
    q.limit = 2;
    std::vector<std::string> seen;
    for (int page = 0; page < 10; ++page) {
      auto rows = db->query(q); // limit + 1 rows: the extra one says there is more
      auto more = rows.size() > 2;
      rows.resize(std::min<std::size_t>(rows.size(), 2));
      for (const auto& r : rows)
        seen.push_back(r.id);
      if (!more)
        break;
      q.cursor = store::cursor_after(rows.back().created_at, rows.back().id);
    }
    CHECK(seen == std::vector<std::string>{uuid(8), uuid(4), uuid(3), uuid(2), uuid(1),
                                           uuid(5), uuid(6), uuid(7), uuid(9)});
    q.cursor = "garbage";
    CHECK_THROWS_AS(db->query(q), store::query_error);
    q.cursor = {};
    q.limit = 100000;
    CHECK(db->query(q).size() == 9); // capped at 500 (+1), all there
  });
}

TEST_CASE("a record reads back as it was written", "[integration]") {
  for_each_store("roundtrip", [](const store_target& t) {
    INFO(t.kind);
    auto db = open_seeded(t);
    check_reads_back(*db, data_set());
    store::negotiation_row row;
    CHECK_FALSE(db->get(uuid(77), row));
    CHECK_FALSE(db->get("nope", row));
  });
}

TEST_CASE("one transaction of many new negotiations writes every row whole",
          "[integration]") {
  // 273 = 256 + 16 + 1: SQLite writes new rows in statements of 256, 16 and
  // 1 rows; each size must bind every column of every row.
  for_each_store("many", [](const store_target& t) {
    INFO(t.kind);
    auto db = open_migrated(t);
    std::vector<msg::negotiation_record> written;
    for (int i = 0; i < 273; ++i) {
      auto r = record(2000 + i, "did:key:i" + std::to_string(i),
                      "did:key:r" + std::to_string(i),
                      i % 2 == 0 ? st::accepted : st::countering, 2 + i % 4,
                      (i % 101) / 100.0, 60'000 + i);
      r.max_rounds = 1 + i % 20;
      r.status_reason = i % 2 == 0 ? "agreed" : "";
      written.push_back(r);
    }
    write_new(*db, written);
    check_reads_back(*db, written);
  });
}

TEST_CASE("texts that COPY must escape read back as written", "[integration]") {
  // PostgreSQL inserts new rows with COPY, whose text format gives tabs,
  // line breaks and backslashes a meaning of their own.
  for_each_store("escapes", [](const store_target& t) {
    INFO(t.kind);
    auto db = open_migrated(t);
    auto r = record(3000, "did:key:tab\there", "did:key:caf\xc3\xa9\\N", st::accepted,
                    3, 0.75, 60'000);
    r.room_id = "room\\with\\backslashes\r\n";
    r.intent_id = "intent \"quoted\"\tand \\N";
    r.status_reason = "line one\nline two\\n";
    r.current_proposal.description = "tab\tnewline\nbackslash\\ quote\" \xe2\x82\xac";
    r.rounds.back().proposal = r.current_proposal;
    r.final_proposal = r.current_proposal;
    write_new(*db, {r});
    check_reads_back(*db, {r});
  });
}

TEST_CASE("the monitoring queries count the data set", "[integration]") {
  for_each_store("stats", [](const store_target& t) {
    INFO(t.kind);
    auto db = open_seeded(t);
    auto s = db->stats(10);
    // 30 days: everything but negotiation 9.
    REQUIRE(s.success_by_agent.size() == 3);
    CHECK(s.success_by_agent[0].initiator == "did:key:alice"); // 1 of 5: 20 %
    CHECK(s.success_by_agent[0].accepted == 1);
    CHECK(s.success_by_agent[0].rejected == 1);
    CHECK(s.success_by_agent[0].success_rate_pct == Approx(20.0));
    CHECK(s.success_by_agent[1].initiator == "did:key:bob");
    CHECK(s.success_by_agent[1].expired == 1);
    CHECK(s.success_by_agent[1].success_rate_pct == Approx(0.0));
    REQUIRE(s.rounds_by_outcome.size() == 2);
    CHECK(s.rounds_by_outcome[0].state == "accepted");
    CHECK(s.rounds_by_outcome[0].avg_rounds == Approx(4.0));
    CHECK(s.rounds_by_outcome[1].state == "rejected");
    CHECK(s.rounds_by_outcome[1].avg_rounds == Approx(2.0));
    std::map<std::string, std::int64_t> current;
    for (const auto& c : s.current)
      current[c.state] = c.count;
    CHECK(current == std::map<std::string, std::int64_t>{{"accepted", 1},
                                                        {"counter_proposed", 3},
                                                        {"initiated", 1},
                                                        {"proposed", 1},
                                                        {"rejected", 1}});
    CHECK(s.expiration.expired == 1);
    CHECK(s.expiration.completed == 2);
    REQUIRE(s.expiration.expiration_rate_pct);
    CHECK(*s.expiration.expiration_rate_pct == Approx(12.5)); // 1 of 8
    REQUIRE(s.high_convergence.size() == 3);
    CHECK(s.high_convergence[0].id == uuid(8));
    CHECK(s.high_convergence[0].round_count == 3);
    CHECK(s.high_convergence[1].id == uuid(3));
    CHECK(s.high_convergence[2].id == uuid(4));
    // 7 days: 5 accepted (4 rounds, the last 4 ms after creation), 6
    // rejected, 7 expired; 9 is older.
    CHECK(s.outcomes.ended == 3);
    CHECK(s.outcomes.agreed == 1);
    REQUIRE(s.outcomes.agreement_rate_pct);
    CHECK(*s.outcomes.agreement_rate_pct == Approx(100.0 / 3));
    REQUIRE(s.outcomes.rounds_to_agreement);
    CHECK(s.outcomes.rounds_to_agreement->p50 == 4);
    CHECK(s.outcomes.rounds_to_agreement->p90 == 4);
    REQUIRE(s.outcomes.seconds_to_agreement);
    CHECK(s.outcomes.seconds_to_agreement->p90 == Approx(0.004).margin(0.0005));
  });
}

TEST_CASE("the outcome figures take percentiles by nearest rank", "[integration]") {
  for_each_store("outcomes", [](const store_target& t) {
    INFO(t.kind);
    store::store_url url;
    REQUIRE(store::parse_store_url(t.url, url).empty());
    auto db = store::open_backend(url);
    db->migrate();
    CHECK_FALSE(db->stats(10).outcomes.agreement_rate_pct);
    // Ten agreements of 2..11 rounds, the k-th round k seconds after its
    // creation; two rejections.
    store::batch b;
    for (int i = 0; i < 12; ++i) {
      auto r = record(3000 + i, "did:key:a", "did:key:b",
                      i < 10 ? st::accepted : st::rejected, 2 + i, 1.0, hour);
      for (auto& round : r.rounds)
        round.timestamp = r.created_at + 1000 * round.round;
      msg::negotiation_event e;
      e.kind = msg::negotiation_event_kind::started;
      e.negotiation_id = r.id;
      e.record = msg::shared_record{r};
      b.add(e);
    }
    db->write(b.take(), {});
    auto o = db->stats(10).outcomes;
    CHECK(o.ended == 12);
    CHECK(o.agreed == 10);
    REQUIRE(o.agreement_rate_pct);
    CHECK(*o.agreement_rate_pct == Approx(100.0 * 10 / 12));
    REQUIRE(o.rounds_to_agreement);
    CHECK(o.rounds_to_agreement->p50 == 6);  // rank 5 of 2..11
    CHECK(o.rounds_to_agreement->p90 == 10); // rank 9
    REQUIRE(o.seconds_to_agreement);
    CHECK(o.seconds_to_agreement->p50 == Approx(6.0));
    CHECK(o.seconds_to_agreement->p90 == Approx(10.0));
  });
}

namespace {

/// A deal score with utilities `initiator` and `responder`; with a Nash
/// distance `nash` unless it is negative.
msg::deal_score stored_score(double initiator, double responder, double nash) {
  msg::deal_score x;
  x.utilities = {initiator, responder};
  x.advantages = {initiator / 2, responder / 2};
  x.reservation = {0.25, 0.125};
  x.welfare = initiator + responder;
  x.nash_product = 0.01;
  if (nash >= 0) {
    x.nash_point = msg::utility_pair{0.5, 0.5};
    x.nash_distance = nash;
    x.pareto_distance = nash / 2;
    x.kalai_smorodinsky_distance = nash;
    x.max_welfare_distance = 0.0;
  }
  x.offers = {{1, "did:key:a", 0.875, 0.25}, {2, "did:key:b", 0.5, 0.75}};
  return x;
}

msg::negotiation_event scored_event(msg::negotiation_event_kind kind,
                                    const msg::negotiation_record& r) {
  msg::negotiation_event e;
  e.kind = kind;
  e.negotiation_id = r.id;
  e.record = msg::shared_record{r};
  return e;
}

} // namespace

TEST_CASE(
    "deal scores are kept with their negotiation and averaged in the outcome figures",
    "[integration]") {
  for_each_store("scores", [](const store_target& t) {
    INFO(t.kind);
    store::store_url url;
    REQUIRE(store::parse_store_url(t.url, url).empty());
    auto db = store::open_backend(url);
    db->migrate();
    using kind = msg::negotiation_event_kind;
    // One inserted already ended, one ended by an update, one without a
    // score, one scored without a rational outcome.
    auto inserted = record(4000, "did:key:a", "did:key:b", st::accepted, 2, 1.0, hour);
    inserted.score = stored_score(0.75, 0.5, 0.25);
    auto updated = record(4001, "did:key:a", "did:key:b", st::countering, 2, 0.5, hour);
    auto plain = record(4002, "did:key:a", "did:key:b", st::rejected, 2, 0.5, hour);
    auto irrational = record(4003, "did:key:a", "did:key:b", st::expired, 2, 0.5, hour);
    irrational.score = stored_score(0.25, 0.125, -1);
    store::batch first;
    for (const auto* r : {&inserted, &updated, &plain, &irrational})
      first.add(scored_event(kind::started, *r));
    db->write(first.take(), {});
    auto before = db->stats(10).outcomes.scores;
    REQUIRE(before);
    CHECK(before->negotiations == 2); // the update's score comes next
    updated.status = st::rejected;
    updated.score = stored_score(0.25, 0.125, 0.75);
    store::batch second;
    second.add(scored_event(kind::rejected, updated));
    db->write(second.take(), {});
    for (const auto* r : {&inserted, &updated, &plain, &irrational}) {
      store::negotiation_row row;
      REQUIRE(db->get(r->id, row));
      CHECK(store::from_row(row).score == r->score);
    }
    auto o = db->stats(10).outcomes;
    REQUIRE(o.scores);
    CHECK(o.scores->negotiations == 3);
    CHECK(o.scores->mean_utility.initiator == Approx((0.75 + 0.25 + 0.25) / 3));
    CHECK(o.scores->mean_utility.responder == Approx((0.5 + 0.125 + 0.125) / 3));
    CHECK(o.scores->mean_advantage.initiator == Approx((0.75 + 0.25 + 0.25) / 6));
    CHECK(o.scores->mean_welfare == Approx((1.25 + 0.375 + 0.375) / 3));
    // Over the two scores with a rational outcome.
    REQUIRE(o.scores->mean_nash_distance);
    CHECK(*o.scores->mean_nash_distance == Approx(0.5));
    REQUIRE(o.scores->mean_pareto_distance);
    CHECK(*o.scores->mean_pareto_distance == Approx(0.25));
  });
}

TEST_CASE("expiry and archive change exactly the rows they name", "[integration]") {
  for_each_store("maintenance", [](const store_target& t) {
    INFO(t.kind);
    auto db = open_seeded(t);
    // Soonest to expire first, in pages of any size.
    const std::vector<std::string> open{uuid(8), uuid(1), uuid(2), uuid(3), uuid(4)};
    CHECK(open_ids(*db, 2) == open);
    CHECK(open_ids(*db, 1) == open);
    CHECK(open_ids(*db, 500) == open);
    CHECK(db->expire() == 1); // negotiation 8 is past expires_at
    CHECK(db->expire() == 0);
    store::negotiation_row row;
    REQUIRE(db->get(uuid(8), row));
    CHECK(row.state == "expired");
    CHECK(open_ids(*db, 3).size() == 4);
    CHECK(db->archive(90) == 1); // negotiation 9, accepted 100 days ago
    CHECK_FALSE(db->get(uuid(9), row));
    CHECK(db->archive(90) == 0);
    auto archived = t.exec("SELECT count(*) FROM negotiations_archive;");
    CHECK_THAT(archived.output, Catch::Contains("1"));
    CHECK(db->archive(0) == 4); // every other ended one
  });
}

TEST_CASE("PostgreSQL answers each query pattern from its index", "[integration]") {
  auto* pg = shared_postgres();
  if (pg == nullptr)
    return;
  auto t = postgresql_target(*pg, "explain");
  auto db = open_seeded(t);
  // A handful of rows never needs an index: forbid the sequential scan so
  // that EXPLAIN shows which index the planner can use.
  const std::vector<std::pair<std::string, std::string>> patterns = {
      {"idx_negotiations_initiator",
       "SELECT * FROM negotiations WHERE initiator_did = 'did:key:alice' AND state NOT IN "
       "('accepted', 'rejected', 'expired') ORDER BY created_at DESC"},
      {"idx_negotiations_responder",
       "SELECT * FROM negotiations WHERE responder_did = 'did:key:bob' AND state NOT IN "
       "('accepted', 'rejected', 'expired') ORDER BY created_at DESC"},
      {"idx_negotiations_convergence",
       "SELECT id FROM negotiations WHERE state = 'counter_proposed' AND "
       "convergence_score > 0.8 ORDER BY convergence_score DESC LIMIT 10"},
      {"idx_negotiations_intent",
       "SELECT * FROM negotiations WHERE intent_id = '" + uuid(1000) + "'"},
      {"idx_negotiations_state",
       "SELECT * FROM negotiations WHERE state = 'proposed' ORDER BY created_at DESC"},
      {"idx_negotiations_expires",
       "UPDATE negotiations SET state = 'expired' WHERE expires_at < NOW() AND state "
       "NOT IN ('accepted', 'rejected', 'expired')"},
  };
  check_plans(t, "SET enable_seqscan = off; EXPLAIN ", patterns);
}

TEST_CASE("SQLite answers the open-state patterns from its partial indexes",
          "[integration]") {
  auto t = sqlite_target("explain");
  auto db = open_seeded(t);
  // The store's own spellings of "not ended" (store::open_states,
  // store::open_channels) must be the partial indexes', or SQLite scans the
  // table instead.
  store::where_clause unused;
  const std::vector<std::pair<std::string, std::string>> patterns = {
      {"idx_negotiations_expires",
       "UPDATE negotiations SET state = 'expired' "
       "WHERE id IN (SELECT id FROM expire_stale_negotiations)"},
      {"idx_negotiations_expires",
       "SELECT id FROM negotiations n WHERE " +
           store::open_states("n.state", store::dialect::sqlite) +
           " ORDER BY n.expires_at"},
      {"idx_channels_open",
       "SELECT channel_id FROM channels c WHERE " +
           store::open_channels("c.status", store::dialect::sqlite) +
           " ORDER BY c.created_at"},
      // Crash recovery's pages, the first and a later one.
      {"idx_negotiations_expires",
       store::open_page_sql("n.id FROM negotiations n", "", 500, store::dialect::sqlite,
                            unused)},
      {"idx_negotiations_expires",
       store::open_page_sql("n.id FROM negotiations n", "1_" + uuid(1), 500,
                            store::dialect::sqlite, unused)},
  };
  check_plans(t, "EXPLAIN QUERY PLAN ", patterns);
  // A later page starts from its cursor in the index (migration 006): no
  // sort of the rows that share an expires_at.
  auto later_page = t.exec("EXPLAIN QUERY PLAN " + patterns[4].second + ";");
  INFO(later_page.output);
  CHECK_THAT(later_page.output, Catch::Contains("(expires_at,id)>"));
  CHECK_THAT(later_page.output, !Catch::Contains("TEMP B-TREE"));
  // A store created before migrations 001 and 003 wrote the conditions as
  // comparisons has them as lists: its indexes serve the same queries.
  auto relisted =
      t.exec("DROP INDEX idx_negotiations_expires; DROP INDEX idx_channels_open;"
             "CREATE INDEX idx_negotiations_expires ON negotiations (expires_at)"
             "  WHERE state NOT IN ('accepted', 'rejected', 'expired');"
             "CREATE INDEX idx_channels_open ON channels (created_at)"
             "  WHERE status NOT IN ('finalized', 'force_finalized', 'failed');");
  REQUIRE(relisted.exit_code == 0);
  check_plans(t, "EXPLAIN QUERY PLAN ", {patterns[1], patterns[2]});
}

} // namespace integration_store_queries_test
