// The channels in the store (migration 003) on both back ends: the
// store hears their events on the bus, writes them in its group commit with
// each channel's row, and answers the queries the API and a restart need.

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/store/iso_time.hpp"
#include "messages/json.hpp"
#include "support/channel_story.hpp"
#include "support/store_fixture.hpp"

namespace integration_store_channels_test {

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

/// SQL that stores `xs` (events 1.. of one channel) and the channel's row
/// the way migration 003 did: each event as its wire JSON.
std::string stored_as_json(const std::vector<msg::channel_event>& xs,
                           const std::string& status) {
  const auto& first = xs.front();
  auto quoted = [](const std::string& text) {
    std::string out = "'";
    for (auto c : text)
      out += c == '\'' ? std::string{"''"} : std::string(1, c);
    return out + "'";
  };
  auto sql = "INSERT INTO channels (channel_id, demand_id, depth, status, round, "
             "created_at, updated_at) VALUES (" +
             quoted(first.channel_id) + ", " + quoted(first.demand_id) + ", 0, " +
             quoted(status) + ", 1, " + quoted(store::to_iso(first.at_ms)) + ", " +
             quoted(store::to_iso(xs.back().at_ms)) + ");\n";
  for (std::size_t i = 0; i < xs.size(); ++i)
    sql += "INSERT INTO channel_events (channel_id, seq, type, at_ms, event) VALUES (" +
           quoted(xs[i].channel_id) + ", " + std::to_string(i + 1) + ", " +
           quoted(to_string(xs[i].kind)) + ", " + std::to_string(xs[i].at_ms) + ", " +
           quoted(nlohmann::json(xs[i]).dump()) + ");\n";
  return sql;
}

/// How many events of channel `id` are stored, whatever their form.
int stored_count(const store_target& t, const std::string& id) {
  // psql: unaligned, tuples only (sqlite3 prints just the number).
  auto prefix = t.kind == "postgresql" ? std::string{"\\a\n\\t\n"} : std::string{};
  auto r = t.exec(prefix + "SELECT count(*) FROM channel_events WHERE channel_id = '" +
                  id + "';\n");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  return std::stoi(r.output);
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
      CHECK(stored[i] == story[i]);
  });
}

TEST_CASE(
    "events stored as JSON before migration 004 are read beside the compact ones, and "
    "its rollback drops the channels it cannot keep",
    "[integration]") {
  for_each_store("channel_bodies", [](const store_target& t) {
    INFO(t.kind);
    auto story = channel_story("c-1", "d-1", t0, channel_ending::finalized);
    std::vector<msg::channel_event> before(story.begin(), story.begin() + 7);
    auto old = channel_story("c-old", "d-1", t0 + 1000, channel_ending::open);
    auto db = store::open_backend(url_of(t));
    REQUIRE(db->migrate() == 9);
    REQUIRE(db->rollback() == 9);
    REQUIRE(db->rollback() == 8);
    REQUIRE(db->rollback() == 7);
    REQUIRE(db->rollback() == 6);
    REQUIRE(db->rollback() == 5);
    REQUIRE(db->rollback() == 4); // the schema a store of migration 003 wrote
    auto inserted = t.exec(stored_as_json(before, "negotiating") +
                           stored_as_json(old, "negotiating"));
    INFO(inserted.output);
    REQUIRE(inserted.exit_code == 0);
    REQUIRE(db->migrate() == 6); // 004 to 009
    CHECK(db->channel_events("c-1") == before);
    {
      // A store of this build goes on with c-1 from its JSON events.
      store_fixture f{t};
      publish_all(f, {story.begin() + 7, story.end()});
      flush(f);
      auto row = f.ask<msg::channel_record>(
          msg::get_atom::value, msg::channel_atom::value, std::string{"c-1"});
      REQUIRE(row.second == msg::error_code::none);
      CHECK(row.first.status == "finalized");
      CHECK(row.first.feedback == 2);
      REQUIRE(row.first.proposal);
      CHECK(*row.first.proposal == *story.back().proposal);
      auto open = f.ask<std::vector<msg::channel_event>>(msg::load_atom::value,
                                                         msg::channel_atom::value);
      CHECK(open.first == old);
    }
    CHECK(db->channel_events("c-1") == story);
    // Back to 003: c-1's compact events cannot be kept, so none of its
    // events are; c-old's JSON ones stay.
    REQUIRE(db->rollback() == 9);
    REQUIRE(db->rollback() == 8);
    REQUIRE(db->rollback() == 7);
    REQUIRE(db->rollback() == 6);
    REQUIRE(db->rollback() == 5);
    REQUIRE(db->rollback() == 4);
    CHECK(stored_count(t, "c-1") == 0);
    CHECK(stored_count(t, "c-old") == static_cast<int>(old.size()));
    REQUIRE(db->migrate() == 6); // 004 to 009
    CHECK(db->channel_events("c-old") == old);
  });
}

TEST_CASE("a demand's submission and its channels' rows make the demand a restart "
          "finds",
          "[integration]") {
  for_each_store("channel_demands", [](const store_target& t) {
    INFO(t.kind);
    store_fixture f{t};
    const std::string id = "d-1";
    auto missing =
        f.ask<msg::demand_view>(msg::get_atom::value, msg::demand_atom::value, id);
    CHECK(missing.second == msg::error_code::demand_not_found);
    msg::demand_view submitted;
    submitted.demand_id = id;
    submitted.user_id = "user_alice";
    submitted.raw_input = "  A meetup needs a venue ";
    submitted.understanding.surface_demand = "A meetup needs a venue";
    submitted.understanding.capability_tags = {"venue"};
    // What the coordinator holds when it writes: channels are left out.
    submitted.channels.push_back(
        {"c-live", {}, 0, {}, msg::demand_status::processing, {}, {}});
    REQUIRE(f.ask<bool>(caf::put_atom::value, submitted).first);
    auto found =
        f.ask<msg::demand_view>(msg::get_atom::value, msg::demand_atom::value, id);
    REQUIRE(found.second == msg::error_code::none);
    CHECK(found.first.user_id == "user_alice");
    CHECK(found.first.raw_input == submitted.raw_input);
    CHECK(found.first.understanding == submitted.understanding);
    CHECK(found.first.channels.empty());
    CHECK(found.first.status == msg::demand_status::processing);
    auto story = channel_story("c-1", id, t0, channel_ending::finalized);
    publish_all(f, {story.begin(), story.begin() + 7});
    flush(f);
    auto open =
        f.ask<msg::demand_view>(msg::get_atom::value, msg::demand_atom::value, id);
    REQUIRE(open.first.channels.size() == 1);
    CHECK(open.first.channels[0].status == msg::demand_status::processing);
    CHECK(open.first.status == msg::demand_status::processing);
    CHECK_FALSE(open.first.proposal);
    publish_all(f, {story.begin() + 7, story.end()});
    flush(f);
    auto ended =
        f.ask<msg::demand_view>(msg::get_atom::value, msg::demand_atom::value, id);
    REQUIRE(ended.first.channels.size() == 1);
    CHECK(ended.first.channels[0].channel_id == "c-1");
    CHECK(ended.first.channels[0].status == msg::demand_status::finalized);
    CHECK(ended.first.status == msg::demand_status::finalized);
    REQUIRE(ended.first.proposal);
    CHECK(*ended.first.proposal == *story.back().proposal);
    CHECK(ended.first.raw_input == submitted.raw_input);
    // A demand the store has channels of but no submission (stored before
    // migration 005) is found too.
    auto other = channel_story("c-2", "d-2", t0 + 1000, channel_ending::open);
    publish_all(f, other);
    flush(f);
    auto bare = f.ask<msg::demand_view>(msg::get_atom::value, msg::demand_atom::value,
                                        std::string{"d-2"});
    REQUIRE(bare.second == msg::error_code::none);
    CHECK(bare.first.raw_input.empty());
    CHECK(bare.first.channels.size() == 1);
  });
}

} // namespace integration_store_channels_test
