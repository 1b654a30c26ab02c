// Migration 009 on PostgreSQL: the fence on a cluster node's writes, the
// owner of each open negotiation and the take-over of a dead member's work
// (docs/cluster.md, "Fencing", "Ownership and take-over"), through the back
// end, each connection a session of its own as the nodes' are.

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/store/batch.hpp"
#include "support/store_fixture.hpp"

namespace integration_store_takeover_test {

using namespace parley::test;
namespace store = parley::actors::store;
namespace msg = parley::messages;

namespace {

constexpr std::int64_t minute_ms = 60 * 1000;

/// A fresh PostgreSQL database, migrated; null (the test is skipped,
/// visibly) without the server binaries.
std::unique_ptr<store_target> postgresql(const std::string& name) {
  auto* pg = shared_postgres();
  if (pg == nullptr)
    return nullptr;
  auto t = std::make_unique<store_target>(postgresql_target(*pg, name));
  REQUIRE(store::open_backend(url_of(*t))->migrate() == 9);
  return t;
}

/// A node's own connection: its membership session.
std::unique_ptr<store::backend> session(const store_target& t) {
  return store::open_backend(url_of(t));
}

/// Joins `node_id` to cluster "prod" on `db`; its key.
store::member_key join(store::backend& db, const std::string& node_id,
                       std::int64_t lease_ms = minute_ms) {
  auto k = db.join({"prod", node_id, "127.0.0.1:8080", "", lease_ms});
  return {"prod", node_id, k};
}

/// A connection that writes as incarnation `k` (a store's writer).
std::unique_ptr<store::backend> fenced(const store_target& t,
                                       const store::member_key& k) {
  auto fence = std::make_shared<store::member_fence>(k.cluster, minute_ms);
  fence->hold(k.incarnation);
  auto db = session(t);
  db->fence_with(fence);
  return db;
}

/// Negotiation `i`, open, as a `started` event would make it.
std::vector<store::write_op> opened(int i) {
  msg::negotiation_record r;
  r.id = uuid(i);
  r.room_id = "room-" + std::to_string(i);
  r.intent_id = uuid(1000 + i);
  r.initiator = "did:key:a";
  r.responder = "did:key:b";
  r.status = msg::negotiation_status::proposed;
  r.created_at = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  r.updated_at = r.created_at;
  r.expires_at = r.created_at + 3'600'000;
  store::batch b;
  msg::negotiation_event e;
  e.kind = msg::negotiation_event_kind::started;
  e.negotiation_id = r.id;
  e.record = msg::shared_record{r};
  b.add(e);
  return b.take();
}

/// The open negotiations `db` resumes (its owner's, when fenced).
std::vector<std::string> open_ids(store::backend& db) {
  std::vector<std::string> out;
  for (const auto& r : db.load_open("", 100))
    out.push_back(r.id);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("a dead member is taken over once, with its open negotiations, and its "
          "writes are refused from then on",
          "[integration]") {
  auto t = postgresql("takeover");
  if (!t)
    return;
  auto a_session = session(*t);
  auto b_session = session(*t);
  auto a = join(*a_session, "node-a");
  auto b = join(*b_session, "node-b");
  auto a_writes = fenced(*t, a);
  auto b_writes = fenced(*t, b);
  a_writes->write(opened(1), {});
  a_writes->write(opened(2), {});
  b_writes->write(opened(3), {});
  // Each resumes what it wrote.
  CHECK(open_ids(*a_writes) == std::vector<std::string>{uuid(1), uuid(2)});
  CHECK(open_ids(*b_writes) == std::vector<std::string>{uuid(3)});

  // A holds its lease and its session: nothing to take.
  CHECK(b_session->take_over(b, false, 1000).empty());

  // A's process is killed: its membership session ends, long before its
  // lease of a minute would lapse, and B takes over at once.
  a_session.reset();
  auto taken = b_session->take_over(b, false, 1000);
  CHECK(taken.incarnations == std::vector<std::int64_t>{a.incarnation});
  CHECK(taken.negotiations == 2);
  CHECK(open_ids(*b_writes) == std::vector<std::string>{uuid(1), uuid(2), uuid(3)});
  // Once: a third member finds nothing left to take.
  auto c_session = session(*t);
  auto c = join(*c_session, "node-c");
  CHECK(c_session->take_over(c, false, 1000).empty());
  // A reads dead, and what is left of it (a writer's connection that was
  // paused) can no longer commit.
  for (const auto& m : b_session->members("prod"))
    if (m.key.incarnation == a.incarnation)
      CHECK(m.status == store::member_status::dead);
  CHECK_THROWS_WITH(a_writes->write(opened(4), {}), Catch::Contains("holds no lease"));
  store::negotiation_row row;
  CHECK_FALSE(b_writes->get(uuid(4), row));
  CHECK(open_ids(*a_writes).empty());
}

TEST_CASE("a member whose lease lapsed is taken over though its session lives",
          "[integration]") {
  auto t = postgresql("takeover_lapsed");
  if (!t)
    return;
  auto a_session = session(*t);
  auto b_session = session(*t);
  auto a = join(*a_session, "node-a", 200);
  auto b = join(*b_session, "node-b");
  auto a_writes = fenced(*t, a);
  a_writes->write(opened(1), {});
  // A stops renewing (a SIGSTOP): by the database's clock its lease lapses.
  store::take_over_report taken;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (taken.empty() && std::chrono::steady_clock::now() < deadline) {
    taken = b_session->take_over(b, false, 1000);
    if (taken.empty())
      std::this_thread::sleep_for(
          std::chrono::milliseconds(50)); // polling the database's clock
  }
  CHECK(taken.incarnations == std::vector<std::int64_t>{a.incarnation});
  CHECK(taken.negotiations == 1);
  // A continues: its heartbeat and its writes are refused.
  CHECK_FALSE(a_session->heartbeat(a, minute_ms));
  CHECK_THROWS_WITH(a_writes->write(opened(2), {}), Catch::Contains("holds no lease"));
}

TEST_CASE("two survivors taking over at once each win different dead members",
          "[integration]") {
  auto t = postgresql("takeover_race");
  if (!t)
    return;
  constexpr int dead = 6;
  std::vector<std::int64_t> killed;
  for (int i = 0; i < dead; ++i) {
    auto s = session(*t);
    auto k = join(*s, "node-" + std::to_string(i));
    fenced(*t, k)->write(opened(10 + i), {});
    killed.push_back(k.incarnation);
  } // each session ends here: every one of them died
  auto b_session = session(*t);
  auto c_session = session(*t);
  auto b = join(*b_session, "node-b");
  auto c = join(*c_session, "node-c");
  store::take_over_report by_b;
  store::take_over_report by_c;
  std::thread tb{[&] {
    by_b = b_session->take_over(b, false, 1000);
  }};
  std::thread tc{[&] {
    by_c = c_session->take_over(c, false, 1000);
  }};
  tb.join();
  tc.join();
  auto all = by_b.incarnations;
  all.insert(all.end(), by_c.incarnations.begin(), by_c.incarnations.end());
  std::sort(all.begin(), all.end());
  CHECK(all == killed); // every one, none twice
  CHECK(by_b.negotiations + by_c.negotiations == dead);
  CHECK(open_ids(*fenced(*t, b)).size() + open_ids(*fenced(*t, c)).size() ==
        static_cast<std::size_t>(dead));
}

TEST_CASE("a node's first take-over claims the open negotiations no member owns, "
          "and it writes nothing before it joined",
          "[integration]") {
  auto t = postgresql("takeover_unowned");
  if (!t)
    return;
  // A single node's store: no owner.
  session(*t)->write(opened(1), {});
  auto fence = std::make_shared<store::member_fence>("prod", minute_ms);
  auto writes = session(*t);
  writes->fence_with(fence);
  CHECK_THROWS_WITH(writes->write(opened(2), {}), Catch::Contains("has not joined"));
  auto a_session = session(*t);
  auto a = join(*a_session, "node-a");
  fence->hold(a.incarnation);
  CHECK(open_ids(*writes).empty());
  CHECK(a_session->take_over(a, false, 1000).negotiations == 0); // not at a heartbeat
  auto first = a_session->take_over(a, true, 1000);
  CHECK(first.incarnations.empty());
  CHECK(first.negotiations == 1);
  CHECK(open_ids(*writes) == std::vector<std::string>{uuid(1)});
  writes->write(opened(2), {});
  CHECK(open_ids(*writes) == std::vector<std::string>{uuid(1), uuid(2)});
}

TEST_CASE("an SQLite store refuses to be fenced or to take over", "[integration]") {
  auto t = sqlite_target("takeover_sqlite");
  auto db = session(t);
  db->migrate();
  CHECK_THROWS_WITH(
      db->fence_with(std::make_shared<store::member_fence>("prod", minute_ms)),
      Catch::Contains("needs the PostgreSQL store"));
  CHECK_THROWS_WITH(db->take_over({"prod", "node-a", 1}, true, 1000),
                    Catch::Contains("needs the PostgreSQL store"));
}

} // namespace integration_store_takeover_test
