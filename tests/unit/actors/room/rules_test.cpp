#include "actors/room/rules.hpp"

#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_room_rules_test {

using parley::actors::negotiation::opening;
using parley::actors::room::route;
using parley::actors::room::rules;
using parley::messages::error_code;
using parley::messages::negotiation_record;
using parley::messages::negotiation_settings;
using parley::messages::negotiation_status;
using parley::messages::severity;
using parley::messages::start_negotiation;

namespace {

/// 1'700'000'000'000 ms is "loyw3v28" in base 36.
constexpr std::int64_t t0 = 1'700'000'000'000;

start_negotiation logo_request(std::string intent_id = {}) {
  start_negotiation x;
  x.message_id = "m-open";
  x.initiator = "alice";
  x.responder = "bob";
  x.proposal.amount = 100000;
  x.proposal.currency = "GBP";
  x.proposal.description = "Logo design";
  x.intent_id = std::move(intent_id);
  return x;
}

/// A closed record for the negotiation `id` (what its terminal event carries).
negotiation_record closed(const std::string& id) {
  negotiation_record x;
  x.id = id;
  x.room_id = "room-a";
  x.status = negotiation_status::accepted;
  return x;
}

/// Starts a negotiation that must succeed and returns its opening.
opening start_ok(rules& room, std::int64_t now_ms,
                 const start_negotiation& x = logo_request()) {
  opening out;
  auto refused = room.start(x, true, true, negotiation_settings{}, now_ms, out);
  if (refused)
    FAIL("start refused: " << refused->message);
  return out;
}

/// Starts and closes `n` negotiations at the same instant; returns their ids.
std::vector<std::string> ids_of(rules& room, int n, std::int64_t now_ms) {
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i) {
    auto x = start_ok(room, now_ms);
    ids.push_back(x.id);
    room.on_closed(closed(x.id));
  }
  return ids;
}

const std::regex uuid_v7{
    "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"};

/// The Unix milliseconds in the first 48 bits of a UUIDv7.
std::int64_t ms_of(const std::string& uuid) {
  auto hex = uuid.substr(0, 8) + uuid.substr(9, 4);
  return static_cast<std::int64_t>(std::stoull(hex, nullptr, 16));
}

} // namespace

TEST_CASE("a room opens a negotiation with a fresh id from the request", "[unit]") {
  rules room{"room-a", 100, 42};
  negotiation_settings settings;
  settings.max_rounds = 7;
  opening out;
  auto refused = room.start(logo_request("intent-7"), true, true, settings, t0, out);
  REQUIRE_FALSE(refused);
  CHECK(std::regex_match(out.id, uuid_v7));
  CHECK(ms_of(out.id) == t0);
  CHECK(out.room_id == "room-a");
  CHECK(out.intent_id == "intent-7");
  CHECK(out.message_id == "m-open");
  CHECK(out.initiator == "alice");
  CHECK(out.responder == "bob");
  CHECK(out.proposal.amount == 100000);
  CHECK(out.proposal.description == "Logo design");
  CHECK(out.settings.max_rounds == 7);
  CHECK(room.active_id() == out.id);
  CHECK(room.route_of(out.id) == route::active);
}

TEST_CASE("the id is a UUIDv7 of the start time, so ids sort by time", "[unit]") {
  rules room{"r", 100, 1};
  auto first = start_ok(room, 0).id;
  CHECK(first.rfind("00000000-0000-7", 0) == 0);
  room.on_closed(closed(room.active_id()));
  auto second = start_ok(room, 36).id;
  CHECK(ms_of(second) == 36);
  room.on_closed(closed(room.active_id()));
  auto third = start_ok(room, t0).id;
  CHECK(ms_of(third) == t0);
  CHECK(first < second);
  CHECK(second < third);
}

TEST_CASE("the same seed gives the same ids", "[unit]") {
  rules a{"room-a", 100, 7};
  rules b{"room-a", 100, 7};
  CHECK(start_ok(a, t0).id == start_ok(b, t0).id);
}

TEST_CASE("a second start while one is active is refused with E012", "[unit]") {
  rules room{"room-a", 100, 42};
  auto first = start_ok(room, t0);
  opening out;
  out.id = "untouched";
  auto refused = room.start(logo_request(), true, true, {}, t0 + 1, out);
  REQUIRE(refused);
  CHECK(refused->severity == severity::error);
  CHECK(refused->code == error_code::negotiation_in_progress);
  CHECK(refused->message == "Negotiation already in progress");
  CHECK(out.id == "untouched");
  CHECK(room.active_id() == first.id);
}

TEST_CASE("the room is free again once the active negotiation closed", "[unit]") {
  rules room{"room-a", 100, 42};
  auto first = start_ok(room, t0);
  room.on_closed(closed(first.id));
  CHECK(room.active_id().empty());
  CHECK(room.route_of(first.id) == route::finished);
  opening out;
  REQUIRE_FALSE(room.start(logo_request(), true, true, {}, t0 + 5, out));
  CHECK(out.id != first.id);
  CHECK(room.active_id() == out.id);
}

TEST_CASE("closing an older negotiation does not free the room", "[unit]") {
  rules room{"room-a", 100, 42};
  auto first = start_ok(room, t0);
  room.on_closed(closed(first.id));
  auto second = start_ok(room, t0 + 1);
  room.on_closed(closed(first.id)); // a late duplicate close
  CHECK(room.active_id() == second.id);
}

TEST_CASE("an initiator or responder outside the room is refused with E008", "[unit]") {
  rules room{"room-a", 100, 42};
  opening out;
  SECTION("unknown initiator") {
    auto refused = room.start(logo_request(), false, true, {}, t0, out);
    REQUIRE(refused);
    CHECK(refused->code == error_code::agent_not_found);
    CHECK(refused->message == "\"alice\" is not a participant of room room-a");
  }
  SECTION("unknown responder") {
    auto refused = room.start(logo_request(), true, false, {}, t0, out);
    REQUIRE(refused);
    CHECK(refused->code == error_code::agent_not_found);
    CHECK(refused->message == "\"bob\" is not a participant of room room-a");
  }
  CHECK(room.active_id().empty());
  CHECK(out.id.empty());
}

TEST_CASE("an invalid start request leaves the room free", "[unit]") {
  rules room{"room-a", 100, 42};
  opening out;
  SECTION("same agent on both sides: E001") {
    auto x = logo_request();
    x.responder = "alice";
    auto refused = room.start(x, true, true, {}, t0, out);
    REQUIRE(refused);
    CHECK(refused->code == error_code::invalid_request);
  }
  SECTION("a zero amount: E017") {
    auto x = logo_request();
    x.proposal.amount = 0;
    auto refused = room.start(x, true, true, {}, t0, out);
    REQUIRE(refused);
    CHECK(refused->code == error_code::invalid_proposal);
  }
  CHECK(room.active_id().empty());
  CHECK(out.id.empty());
}

TEST_CASE("ids are reproducible for the same seed and room", "[unit]") {
  rules a{"room-a", 100, 42};
  rules b{"room-a", 100, 42};
  auto from_a = ids_of(a, 20, t0);
  auto from_b = ids_of(b, 20, t0);
  CHECK(from_a == from_b);
}

TEST_CASE("generated intent ids are reproducible for the same seed", "[unit]") {
  rules a{"room-a", 100, 42};
  rules b{"room-a", 100, 42};
  CHECK(start_ok(a, t0).intent_id == start_ok(b, t0).intent_id);
}

TEST_CASE("another seed gives other ids", "[unit]") {
  rules a{"room-a", 100, 42};
  rules b{"room-a", 100, 43};
  auto x = start_ok(a, t0);
  auto y = start_ok(b, t0);
  CHECK(x.id != y.id);
  CHECK(x.intent_id != y.intent_id);
}

TEST_CASE("ids are unique across many starts in the same millisecond", "[unit]") {
  rules room{"room-a", 5000, 42};
  auto ids = ids_of(room, 5000, t0);
  std::set<std::string> distinct(ids.begin(), ids.end());
  CHECK(distinct.size() == ids.size());
  for (const auto& id : ids)
    REQUIRE(std::regex_match(id, uuid_v7));
}

TEST_CASE("ids stay unique after older negotiations leave the bounded history",
          "[unit]") {
  // With the default history of 100, 2000 starts in one millisecond: an id
  // must never be handed out twice, even once its first owner was dropped
  // from the history (the bus, stores and late messages still know it).
  rules room{"room-a", 100, 42};
  auto ids = ids_of(room, 2000, t0);
  std::map<std::string, std::size_t> first_start;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto [at, fresh] = first_start.emplace(ids[i], i);
    INFO("start " << i << " reused the id of start " << at->second << ": " << ids[i]);
    CHECK(fresh);
  }
}

TEST_CASE("an intent id given by the starter is kept", "[unit]") {
  rules room{"room-a", 100, 42};
  CHECK(start_ok(room, t0, logo_request("intent-abc")).intent_id == "intent-abc");
}

TEST_CASE("a generated intent id is a UUIDv7", "[unit]") {
  rules room{"room-a", 100, 42};
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    auto x = start_ok(room, t0 + i);
    INFO(x.intent_id);
    CHECK(x.intent_id.size() == 36);
    CHECK(std::regex_match(x.intent_id, uuid_v7));
    seen.insert(x.intent_id);
    room.on_closed(closed(x.id));
  }
  CHECK(seen.size() == 50);
}

TEST_CASE("agent messages are routed by negotiation id", "[unit]") {
  rules room{"room-a", 100, 42};
  SECTION("no active negotiation") {
    CHECK(room.route_of("current") == route::unknown);
    CHECK(room.route_of("") == route::unknown);
    CHECK(room.route_of("neg_x") == route::unknown);
  }
  SECTION("one active, one finished") {
    auto first = start_ok(room, t0);
    room.on_closed(closed(first.id));
    auto second = start_ok(room, t0 + 1);
    CHECK(room.route_of("current") == route::active);
    CHECK(room.route_of("") == route::active);
    CHECK(room.route_of(second.id) == route::active);
    CHECK(room.route_of(first.id) == route::finished);
    CHECK(room.route_of("neg_x") == route::unknown);
  }
}

TEST_CASE("the history keeps the newest negotiations, oldest first", "[unit]") {
  rules room{"room-a", 3, 42};
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    auto x = start_ok(room, t0 + i);
    ids.push_back(x.id);
    room.on_closed(closed(x.id));
  }
  auto history = room.history();
  REQUIRE(history.size() == 3);
  CHECK(history[0].id == ids[1]);
  CHECK(history[1].id == ids[2]);
  CHECK(history[2].id == ids[3]);
  CHECK(room.route_of(ids[0]) == route::unknown); // dropped
  CHECK(room.route_of(ids[1]) == route::finished);
  CHECK(room.route_of(ids[3]) == route::finished);
}

TEST_CASE("a history limit of 0 keeps no history but still frees the room", "[unit]") {
  rules room{"room-a", 0, 42};
  auto x = start_ok(room, t0);
  room.on_closed(closed(x.id));
  CHECK(room.history().empty());
  CHECK(room.active_id().empty());
  CHECK(room.route_of(x.id) == route::unknown);
  CHECK(room.route_of("previous") == route::unknown);
  auto y = start_ok(room, t0 + 1);
  CHECK(y.id != x.id);
}

TEST_CASE("the field previous names the most recently ended negotiation", "[unit]") {
  rules room{"room-a", 5, 42};
  CHECK(room.resolve("previous").empty());
  auto x = start_ok(room, t0);
  CHECK(room.resolve("current") == x.id);
  room.on_closed(closed(x.id));
  CHECK(room.resolve("previous") == x.id);
  CHECK(room.route_of("previous") == route::finished);
  CHECK(room.resolve("neg_other") == "neg_other");
}

} // namespace unit_actors_room_rules_test
