// The store actor on a real SQLite file: group commit, `sync` and `flush`
// semantics, and coded errors that never stop it.

#include <chrono>
#include <filesystem>
#include <thread>

#include <catch2/catch.hpp>

#include "support/negotiation_events.hpp"
#include "support/store_fixture.hpp"

namespace integration_store_actor_test {

using namespace parley::test;
namespace store = parley::actors::store;
namespace msg = parley::messages;
using namespace std::chrono_literals;

namespace {

/// A store over a fresh SQLite file.
struct fixture : store_fixture {
  explicit fixture(store::store_options options = {})
      : store_fixture(sqlite_target("actor"), options) {}
};

} // namespace

TEST_CASE("sync answers once the record with that many rounds is committed",
          "[integration]") {
  fixture f;
  auto id = uuid(1);
  // Asked before the events exist: the answer waits for their commit.
  auto pending = f.self->request(f.db, 10s, msg::sync_atom::value, id, std::int32_t{2});
  f.publish(sample_started(id));
  f.publish(sample_updated(id, 2, 8500));
  std::int32_t rounds = 0;
  pending.receive([&](std::int32_t n) { rounds = n; },
                  [&](caf::error& err) { FAIL(f.sys.render(err)); });
  CHECK(rounds >= 2);
  auto got = f.ask<msg::negotiation_record>(msg::get_atom::value, id);
  REQUIRE(got.second == msg::error_code::none);
  CHECK(got.first.rounds.size() >= 2);
  // A later round, then the end: a sync for more rounds than it ever has is
  // answered by the end.
  f.publish(sample_updated(id, 3, 9250));
  f.publish(sample_agreed(id));
  auto done = f.ask<std::int32_t>(msg::sync_atom::value, id, std::int32_t{99});
  CHECK(done.second == msg::error_code::none);
  CHECK(done.first == 4);
  auto record = f.ask<msg::negotiation_record>(msg::get_atom::value, id).first;
  CHECK(record.status == msg::negotiation_status::accepted);
  CHECK(record.rounds.size() == 4);
  CHECK(record.intent_id == "intent-logo");
  // Already committed: answered from what the store knows.
  CHECK(f.ask<std::int32_t>(msg::sync_atom::value, id, std::int32_t{1}).first == 4);
}

TEST_CASE("everything that arrives during a transaction goes into the next one",
          "[integration]") {
  fixture f;
  constexpr int n = 500;
  for (int i = 0; i < n; ++i) {
    auto id = uuid(100 + i);
    f.publish(sample_started(id));
    f.publish(sample_updated(id, 2, 8500));
    f.publish(sample_updated(id, 3, 9250));
    f.publish(sample_agreed(id));
  }
  f.drain_bus();
  auto flushed = f.ask<std::int64_t>(msg::flush_atom::value);
  REQUIRE(flushed.second == msg::error_code::none);
  CHECK(flushed.first == 4 * n);
  msg::store_query q;
  q.state = "accepted";
  q.limit = 500;
  auto page = f.ask<msg::store_page>(msg::query_atom::value, q);
  REQUIRE(page.second == msg::error_code::none);
  CHECK(page.first.records.size() == n);
  CHECK(page.first.next_cursor.empty());
  for (const auto& r : page.first.records)
    REQUIRE(r.rounds.size() == 4);
  // Nothing pending: a flush answers at once with the same count.
  CHECK(f.ask<std::int64_t>(msg::flush_atom::value).first == 4 * n);
}

TEST_CASE("the store answers bad requests with coded errors and keeps going",
          "[integration]") {
  fixture f;
  CHECK(f.ask<msg::negotiation_record>(msg::get_atom::value, uuid(9)).second ==
        msg::error_code::negotiation_not_found);
  msg::store_query q;
  q.state = "countering";
  CHECK(f.ask<msg::store_page>(msg::query_atom::value, q).second ==
        msg::error_code::invalid_request);
  q = {};
  q.limit = 0;
  CHECK(f.ask<msg::store_page>(msg::query_atom::value, q).second ==
        msg::error_code::invalid_request);
  CHECK(f.ask<std::int64_t>(msg::archive_atom::value, std::int32_t{-1}).second ==
        msg::error_code::invalid_request);
  CHECK(f.ask<std::int64_t>(msg::expire_atom::value).second == msg::error_code::none);
  CHECK(f.ask<msg::store_stats>(msg::stats_atom::value).second == msg::error_code::none);
  CHECK(f.ask<msg::store_page>(msg::load_atom::value, std::string{}, std::int32_t{10})
            .second == msg::error_code::none);
  CHECK(
      f.ask<msg::store_page>(msg::load_atom::value, std::string{"x"}, std::int32_t{10})
          .second == msg::error_code::invalid_request);
  CHECK(
      f.ask<msg::store_page>(msg::load_atom::value, std::string{}, std::int32_t{10001})
          .second == msg::error_code::invalid_request);
}

TEST_CASE("a failed write is written again once the database is back, before anything later",
          "[integration]") {
  fixture f;
  // The schema goes away underneath the store.
  store::store_url url;
  REQUIRE(store::parse_store_url(f.target.url, url).empty());
  auto db = store::open_backend(url);
  while (db->rollback() != 0) {
  }
  auto id = uuid(2);
  f.publish(sample_started(id));
  f.publish(sample_updated(id, 2, 8500));
  f.drain_bus();
  // A flush learns why; reads fail meanwhile; while the store cannot commit,
  // a sync is refused at once and the store is not ready.
  CHECK(f.ask<std::int64_t>(msg::flush_atom::value).second == msg::error_code::store_failed);
  CHECK(f.ask<msg::store_stats>(msg::stats_atom::value).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<std::int32_t>(msg::sync_atom::value, id, std::int32_t{2}).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<std::string>(msg::ping_atom::value).first.rfind("cannot commit", 0) == 0);
  // Back again. The next round updates the row that only the failed batch
  // inserts: it is written after that batch, once the retry's pause is over
  // (2 s at most).
  db->migrate();
  f.publish(sample_updated(id, 3, 9250));
  f.drain_bus();
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (f.ask<std::int64_t>(msg::flush_atom::value).second != msg::error_code::none &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(50ms);
  CHECK(f.ask<std::int32_t>(msg::sync_atom::value, id, std::int32_t{3}).first == 3);
  CHECK(f.ask<std::string>(msg::ping_atom::value).first.empty());
  auto record = f.ask<msg::negotiation_record>(msg::get_atom::value, id);
  REQUIRE(record.second == msg::error_code::none);
  CHECK(record.first.rounds.size() == 3);
  CHECK(f.ask<std::int64_t>(msg::flush_atom::value).first == 3);
}

TEST_CASE("a sync whose record never comes fails after the sync timeout",
          "[integration]") {
  store::store_options options;
  options.sync_timeout = 300ms;
  fixture f{options};
  auto started = std::chrono::steady_clock::now();
  CHECK(f.ask<std::int32_t>(msg::sync_atom::value, uuid(4), std::int32_t{1}).second ==
        msg::error_code::store_failed);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
}

TEST_CASE("the writer checkpoints the log once a commit has grown it past 1 MiB",
          "[integration]") {
  fixture f;
  // Forty transactions of a hundred whole negotiations: far more log than
  // 1 MiB in all. Checkpointed, the log starts again from its beginning, so
  // its file stays near one checkpoint's worth; never checkpointed, it only
  // grows.
  constexpr int transactions = 40;
  constexpr int per_transaction = 100;
  for (int t = 0; t < transactions; ++t) {
    for (int i = 0; i < per_transaction; ++i) {
      auto id = uuid(10000 + t * per_transaction + i);
      f.publish(sample_started(id));
      f.publish(sample_updated(id, 2, 8500));
      f.publish(sample_agreed(id));
    }
    f.drain_bus();
    REQUIRE(f.ask<std::int64_t>(msg::flush_atom::value).second ==
            msg::error_code::none);
  }
  auto log_bytes = std::filesystem::file_size(f.target.url + "-wal");
  INFO("log file: " << log_bytes << " bytes");
  CHECK(log_bytes < 6 * 1024 * 1024);
}

} // namespace integration_store_actor_test
