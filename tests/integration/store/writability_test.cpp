// The store knows when it cannot write: a commit that fails is answered at
// once to everyone waiting on it, and a store file deleted or replaced under
// an SQLite store makes every later write fail and `ping` say why.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "messages/agent_profile.hpp"
#include "support/negotiation_events.hpp"
#include "support/store_fixture.hpp"

namespace integration_store_writability_test {

using namespace parley::test;
namespace store = parley::actors::store;
namespace msg = parley::messages;
using namespace std::chrono_literals;

namespace {

/// A store over a fresh SQLite file.
struct writability_fixture : store_fixture {
  explicit writability_fixture(store::store_options options = {})
      : store_fixture(sqlite_target("writability"), options) {}
};

msg::agent_spec agent(const std::string& id) {
  msg::agent_spec x;
  x.id = id;
  x.brain.kind = msg::brain_kind::external;
  return x;
}

} // namespace

TEST_CASE("a sync waiting for a commit that fails is answered E028 at once",
          "[integration]") {
  store::store_options options;
  options.sync_timeout = 30s; // far past what the answer may take
  writability_fixture f{options};
  // The schema goes away underneath the store: its next commit fails.
  auto db = store::open_backend(url_of(f.target));
  while (db->rollback() != 0) {
  }
  auto id = uuid(1);
  auto started = std::chrono::steady_clock::now();
  auto waiting = f.self->request(f.db, 20s, msg::sync_atom::value, id, std::int32_t{2});
  f.publish(sample_started(id));
  f.publish(sample_updated(id, 2, 8500));
  auto code = msg::error_code::none;
  waiting.receive([](std::int32_t) {},
                  [&](caf::error& err) {
                    INFO(f.sys.render(err));
                    code = msg::is_parley_error(err)
                               ? static_cast<msg::error_code>(err.code())
                               : msg::error_code::overloaded;
                  });
  CHECK(code == msg::error_code::store_failed);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
  // Registrations are refused too while it cannot commit.
  CHECK(f.ask<bool>(caf::put_atom::value, agent("a1")).second ==
        msg::error_code::store_failed);
}

TEST_CASE("a store whose SQLite file was deleted refuses writes and says why",
          "[integration]") {
  writability_fixture f;
  auto id = uuid(2);
  f.publish(sample_started(id));
  f.drain_bus();
  REQUIRE(f.ask<std::int64_t>(msg::flush_atom::value).second == msg::error_code::none);
  CHECK(f.ask<std::string>(msg::ping_atom::value).first.empty());
  CHECK(f.ask<bool>(caf::put_atom::value, agent("a1")).second == msg::error_code::none);
  std::filesystem::remove(f.target.url);
  auto why = f.ask<std::string>(msg::ping_atom::value).first;
  INFO(why);
  CHECK(why.rfind("cannot write", 0) == 0);
  CHECK(why.find("deleted") != std::string::npos);
  // Its next commit goes into the deleted file: it failed.
  f.publish(sample_updated(id, 2, 8500));
  f.drain_bus();
  CHECK(f.ask<std::int64_t>(msg::flush_atom::value).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<std::int32_t>(msg::sync_atom::value, id, std::int32_t{2}).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<bool>(caf::put_atom::value, agent("a2")).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<std::string>(msg::ping_atom::value).first.rfind("cannot commit", 0) == 0);
}

TEST_CASE("a store whose SQLite file was replaced by another is not ready",
          "[integration]") {
  writability_fixture f;
  CHECK(f.ask<std::string>(msg::ping_atom::value).first.empty());
  auto copy = f.target.url + ".copy";
  std::filesystem::copy_file(f.target.url, copy);
  std::filesystem::rename(copy, f.target.url);
  auto why = f.ask<std::string>(msg::ping_atom::value).first;
  INFO(why);
  CHECK(why.find("replaced") != std::string::npos);
}

} // namespace integration_store_writability_test
