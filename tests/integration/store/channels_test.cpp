// Seed 002's channels in the store (migration 003) on both back ends: the
// store hears their events on the bus, writes them in its group commit with
// each channel's row, and answers the queries the API and a restart need.

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/channel_story.hpp"
#include "support/store_fixture.hpp"

using namespace parley::test;
namespace store = parley::actors::store;
namespace msg = parley::messages;

namespace {

constexpr std::int64_t t0 = 1'700'000'000'000;

/// Publishes every event of `xs` through the bus.
void publish_all(store_fixture& f, const std::vector<msg::channel_event>& xs) {
  for (const auto& x : xs)
    f.publish(x);
}

/// Waits until everything published before is committed.
void flush(store_fixture& f) {
  f.drain_bus();
  REQUIRE(f.ask<std::int64_t>(msg::flush_atom::value).second == msg::error_code::none);
}

} // namespace

TEST_CASE("the store writes channel events and each channel's row on both back ends",
          "[integration]") {
  for_each_store("channels", [](const store_target& t) {
    INFO(t.kind);
    store_fixture f{t};
    auto done = channel_story("c-done", "d-1", t0, channel_ending::finalized);
    auto failed = channel_story("c-failed", "d-1", t0 + 1000, channel_ending::failed);
    auto open = channel_story("c-open", "d-1", t0 + 2000, channel_ending::open);
    auto other = channel_story("c-other", "d-2", t0 + 3000, channel_ending::open);
    // The coordinator's events before a channel exists name none: not stored.
    msg::channel_event understood;
    understood.kind = msg::channel_event_kind::demand_understood;
    understood.demand_id = "d-1";
    f.publish(understood);
    publish_all(f, done);
    publish_all(f, failed);
    // An open channel's events in two commits.
    std::vector<msg::channel_event> first(open.begin(), open.begin() + 4);
    std::vector<msg::channel_event> rest(open.begin() + 4, open.end());
    publish_all(f, first);
    flush(f);
    publish_all(f, rest);
    publish_all(f, other);
    flush(f);

    auto row = f.ask<msg::channel_record>(
        msg::get_atom::value, msg::channel_atom::value, std::string{"c-done"});
    REQUIRE(row.second == msg::error_code::none);
    CHECK(row.first.status == "finalized");
    CHECK(row.first.demand_id == "d-1");
    CHECK(row.first.round == 1);
    REQUIRE(row.first.proposal);
    CHECK(*row.first.proposal == *done.back().proposal);
    CHECK(row.first.responses == 2);
    CHECK(row.first.feedback == 2);
    CHECK(row.first.created_at == t0);
    CHECK(row.first.updated_at == done.back().at_ms);
    CHECK(row.first.parent_channel_id.empty());
    CHECK(row.first.depth == 0);

    auto open_row = f.ask<msg::channel_record>(
        msg::get_atom::value, msg::channel_atom::value, std::string{"c-open"});
    REQUIRE(open_row.second == msg::error_code::none);
    CHECK(open_row.first.status == "negotiating");
    CHECK(open_row.first.feedback == 2);
    CHECK(f.ask<msg::channel_record>(msg::get_atom::value, msg::channel_atom::value,
                                     std::string{"c-failed"})
              .first.status == "failed");

    auto unknown = f.ask<msg::channel_record>(
        msg::get_atom::value, msg::channel_atom::value, std::string{"c-nowhere"});
    CHECK(unknown.second == msg::error_code::channel_not_found);

    auto of_d1 = f.ask<std::vector<msg::channel_record>>(
        msg::list_atom::value, msg::channel_atom::value, std::string{"d-1"});
    REQUIRE(of_d1.second == msg::error_code::none);
    std::vector<std::string> ids;
    for (const auto& x : of_d1.first)
      ids.push_back(x.channel_id);
    CHECK(ids == std::vector<std::string>{"c-done", "c-failed", "c-open"});
    CHECK(f.ask<std::vector<msg::channel_record>>(
               msg::list_atom::value, msg::channel_atom::value, std::string{"d-none"})
              .first.empty());

    // Only the open channels' events come back, channel by channel, each in
    // order, equal to what was published.
    auto events = f.ask<std::vector<msg::channel_event>>(msg::load_atom::value,
                                                         msg::channel_atom::value);
    REQUIRE(events.second == msg::error_code::none);
    auto expected = open;
    expected.insert(expected.end(), other.begin(), other.end());
    CHECK(events.first == expected);
  });
}

TEST_CASE("a restarted store goes on numbering a channel's events", "[integration]") {
  for_each_store("channels_restart", [](const store_target& t) {
    INFO(t.kind);
    auto story = channel_story("c-1", "d-1", t0, channel_ending::finalized);
    std::vector<msg::channel_event> before(story.begin(), story.begin() + 7);
    std::vector<msg::channel_event> after(story.begin() + 7, story.end());
    {
      store_fixture f{t};
      publish_all(f, before);
      flush(f);
      auto events = f.ask<std::vector<msg::channel_event>>(msg::load_atom::value,
                                                           msg::channel_atom::value);
      CHECK(events.first == before);
    }
    store_fixture f{t};
    publish_all(f, after);
    flush(f);
    auto row = f.ask<msg::channel_record>(msg::get_atom::value,
                                          msg::channel_atom::value, std::string{"c-1"});
    REQUIRE(row.second == msg::error_code::none);
    CHECK(row.first.status == "finalized");
    CHECK(row.first.feedback == 2);
    CHECK(row.first.created_at == t0);
    CHECK(f.ask<std::vector<msg::channel_event>>(msg::load_atom::value,
                                                 msg::channel_atom::value)
              .first.empty());
    // Every event is stored once, numbered 1..10.
    auto db = store::open_backend(url_of(t));
    auto stored = db->channel_events("c-1");
    REQUIRE(stored.size() == story.size());
    for (std::size_t i = 0; i < story.size(); ++i)
      CHECK(store::channel_event_of(stored[i]) == story[i]);
  });
}
