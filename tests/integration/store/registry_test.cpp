// Migration 002 on both back ends: the agents and rooms `parley serve`
// registered, kept for crash recovery; through the back end and through the
// store actor.

#include <catch2/catch.hpp>

#include "messages/json.hpp"
#include "support/negotiation_events.hpp"
#include "support/store_fixture.hpp"

namespace integration_store_registry_test {

using namespace parley::test;
namespace store = parley::actors::store;
namespace msg = parley::messages;

namespace {

const std::string did_alice = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK";
const std::string did_bob = "did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG";

/// An agent whose spec uses most of what a spec can say.
msg::agent_spec scripted_agent(const std::string& id) {
  msg::agent_spec x;
  x.id = id;
  x.profile.display_name = "Alice \"the buyer\" \xc3\xa9";
  x.profile.role = "buyer";
  x.profile.preferences.max_auto_approve_amount = 250000;
  x.profile.preferences.preferred_currency = "EUR";
  x.profile.capabilities = {{"design", 0.9}, {"print", 0.25}};
  x.profile.load = 0.5;
  x.brain.kind = msg::brain_kind::script;
  msg::script_reply reply;
  reply.action = msg::reply_action::counter;
  reply.proposal = msg::proposal_patch{};
  reply.proposal->amount = 42000;
  reply.reason = "meet me halfway";
  reply.delay_ms = 250;
  x.brain.script = {reply};
  return x;
}

msg::agent_spec external_agent(const std::string& id) {
  msg::agent_spec x;
  x.id = id;
  x.brain.kind = msg::brain_kind::external;
  return x;
}

/// The JSON of `xs`: what must come back (agent_spec has no operator==).
nlohmann::json as_json(const std::vector<msg::agent_spec>& xs) {
  return nlohmann::json(xs);
}

std::vector<std::string> room_ids(const std::vector<msg::room_request>& xs) {
  std::vector<std::string> out;
  for (const auto& x : xs)
    out.push_back(x.id);
  return out;
}

} // namespace

TEST_CASE("agents and rooms round-trip through both back ends", "[integration]") {
  for_each_store("registry", [](const store_target& t) {
    INFO(t.kind);
    auto db = store::open_backend(url_of(t));
    REQUIRE(db->migrate() == 9);
    CHECK(db->load_entries(store::registry::agents, "", 10).empty());
    CHECK(db->load_entries(store::registry::rooms, "", 10).empty());
    auto alice = scripted_agent(did_alice);
    auto bob = external_agent(did_bob);
    db->put_entry(store::registry::agents, store::agent_row(alice));
    db->put_entry(store::registry::agents, store::agent_row(bob));
    db->put_entry(store::registry::agents, store::agent_row(external_agent("carol")));
    db->put_entry(store::registry::rooms, store::room_row({"room-1", {did_alice, did_bob}}));
    db->put_entry(store::registry::rooms, store::room_row({"room-0", {"carol", did_bob}}));
    // An upsert replaces the spec.
    alice.brain.script.clear();
    alice.profile.role = "seller";
    db->put_entry(store::registry::agents, store::agent_row(alice));
    CHECK(db->delete_entry(store::registry::agents, "carol"));
    CHECK_FALSE(db->delete_entry(store::registry::agents, "carol"));
    CHECK_FALSE(db->delete_entry(store::registry::agents, "nobody"));
    std::vector<msg::agent_spec> agents;
    for (const auto& row : db->load_entries(store::registry::agents, "", 10))
      agents.push_back(store::agent_of(row));
    CHECK(as_json(agents) == as_json({alice, bob}));
    // Page by page in id order (not creation order): after the last id of
    // the previous page.
    std::vector<msg::room_request> rooms;
    for (const auto& row : db->load_entries(store::registry::rooms, "", 1))
      rooms.push_back(store::room_of(row));
    for (const auto& row : db->load_entries(store::registry::rooms, "room-0", 1))
      rooms.push_back(store::room_of(row));
    REQUIRE(rooms.size() == 2);
    CHECK(rooms[0].id == "room-0");
    CHECK(rooms[0].members == std::vector<std::string>{"carol", did_bob});
    CHECK(rooms[1].id == "room-1");
    CHECK(rooms[1].members == std::vector<std::string>{did_alice, did_bob});
    CHECK(db->load_entries(store::registry::rooms, "room-1", 1).empty());
    // What a second connection (a restarted server) reads.
    auto again = store::open_backend(url_of(t));
    CHECK(again->load_entries(store::registry::agents, "", 10).size() == 2);
  });
}

TEST_CASE("migration 002 checks its JSON columns, verify names what it lacks, "
          "rollback drops it before 001",
          "[integration]") {
  for_each_store("registry_schema", [](const store_target& t) {
    INFO(t.kind);
    auto db = store::open_backend(url_of(t));
    REQUIRE(db->migrate() == 9);
    auto bad_spec = t.exec("INSERT INTO parley_agents (id, spec) VALUES ('a', '[1]');");
    CHECK(bad_spec.exit_code != 0);
    auto bad_members =
        t.exec("INSERT INTO parley_rooms (id, members) VALUES ('r', '{\"a\": 1}');");
    CHECK(bad_members.exit_code != 0);
    auto dropped = t.exec("DROP TABLE parley_agents;");
    INFO(dropped.output);
    REQUIRE(dropped.exit_code == 0);
    CHECK(db->verify() == std::vector<std::string>{"table parley_agents"});
    auto cli = run_parley("db verify --store '" + t.url + "'");
    CHECK(cli.exit_code == 1);
    CHECK_THAT(cli.output, Catch::Contains("table parley_agents"));
    REQUIRE(db->rollback() == 9);
    REQUIRE(db->rollback() == 8);
    REQUIRE(db->rollback() == 7);
    REQUIRE(db->rollback() == 6);
    REQUIRE(db->rollback() == 5);
    REQUIRE(db->rollback() == 4);
    REQUIRE(db->rollback() == 3);
    REQUIRE(db->rollback() == 2);
    CHECK(db->verify() ==
          std::vector<std::string>{
              "table channels", "table channel_events", "table cluster_members",
              "column negotiation_runtime.score", "column negotiation_runtime.owner",
              "table parley_agents", "table parley_rooms", "table parley_demands"});
    // 001 is intact until its own rollback.
    CHECK(t.exec("SELECT count(*) FROM negotiations;").exit_code == 0);
    REQUIRE(db->rollback() == 1);
    CHECK(db->migrate() == 9);
    CHECK(db->verify().empty());
  });
}

TEST_CASE("the store actor puts, deletes and loads agents and rooms on both back ends",
          "[integration]") {
  for_each_store("registry_actor", [](const store_target& t) {
    INFO(t.kind);
    store_fixture f{t};
    auto alice = scripted_agent(did_alice);
    auto bob = external_agent(did_bob);
    CHECK(f.ask<bool>(caf::put_atom::value, alice).first);
    CHECK(f.ask<bool>(caf::put_atom::value, bob).first);
    CHECK(f.ask<bool>(caf::put_atom::value, external_agent("carol")).first);
    CHECK(f.ask<bool>(caf::put_atom::value, msg::room_request{"room-1", {did_alice, did_bob}})
              .first);
    auto removed = f.ask<bool>(caf::delete_atom::value, msg::agent_atom::value,
                               std::string{"carol"});
    CHECK(removed.second == msg::error_code::none);
    CHECK(removed.first);
    CHECK_FALSE(f.ask<bool>(caf::delete_atom::value, msg::agent_atom::value,
                            std::string{"carol"})
                    .first);
    CHECK(f.ask<bool>(caf::put_atom::value, msg::agent_spec{}).second ==
          msg::error_code::invalid_request);
    auto agents = f.ask<std::vector<msg::agent_spec>>(
        msg::load_atom::value, msg::agent_atom::value, std::string{}, std::int32_t{10});
    REQUIRE(agents.second == msg::error_code::none);
    CHECK(as_json(agents.first) == as_json({alice, bob}));
    auto rooms = f.ask<std::vector<msg::room_request>>(
        msg::load_atom::value, msg::room_atom::value, std::string{}, std::int32_t{10});
    REQUIRE(rooms.second == msg::error_code::none);
    CHECK(room_ids(rooms.first) == std::vector<std::string>{"room-1"});
    // Answered means committed: another connection sees it.
    CHECK(store::open_backend(url_of(t))
              ->load_entries(store::registry::rooms, "", 10)
              .size() == 1);
    // A page holds 1 to 10,000.
    CHECK(f.ask<std::vector<msg::agent_spec>>(msg::load_atom::value,
                                              msg::agent_atom::value, std::string{},
                                              std::int32_t{0})
              .second == msg::error_code::invalid_request);
  });
}

TEST_CASE("an agent's row is written after the negotiation events heard before it",
          "[integration]") {
  auto t = sqlite_target("registry_order");
  store_fixture f{t};
  // Events and then a put, without waiting in between: the put's answer
  // means the events before it are committed too.
  const std::string id = "0190a4c2-0000-7000-8000-000000000077";
  f.publish(sample_started(id));
  f.publish(sample_updated(id, 2, 8500));
  f.drain_bus();
  CHECK(f.ask<bool>(caf::put_atom::value, external_agent(did_alice)).first);
  auto db = store::open_backend(url_of(t));
  store::negotiation_row row;
  REQUIRE(db->get(id, row));
  CHECK(row.rounds.size() == 2);
}

TEST_CASE("a failed agent or room write is E028 and the store carries on", "[integration]") {
  auto t = sqlite_target("registry_failure");
  store_fixture f{t};
  auto db = store::open_backend(url_of(t));
  REQUIRE(db->rollback() == 9);
  REQUIRE(db->rollback() == 8);
  REQUIRE(db->rollback() == 7);
  REQUIRE(db->rollback() == 6);
  REQUIRE(db->rollback() == 5);
  REQUIRE(db->rollback() == 4);
  REQUIRE(db->rollback() == 3);
  REQUIRE(db->rollback() == 2); // the tables go away underneath the store
  CHECK(f.ask<bool>(caf::put_atom::value, external_agent(did_alice)).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<bool>(caf::delete_atom::value, msg::agent_atom::value, did_alice).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<bool>(caf::put_atom::value, msg::room_request{"r", {did_alice}}).second ==
        msg::error_code::store_failed);
  CHECK(f.ask<std::vector<msg::agent_spec>>(msg::load_atom::value,
                                            msg::agent_atom::value, std::string{},
                                            std::int32_t{10})
            .second == msg::error_code::store_failed);
  CHECK(f.ask<std::vector<msg::room_request>>(msg::load_atom::value,
                                              msg::room_atom::value, std::string{},
                                              std::int32_t{10})
            .second == msg::error_code::store_failed);
  // Malformed rows read back as E028 too, never a crash.
  REQUIRE(db->migrate() == 8); // 002 to 009
  REQUIRE(t.exec("INSERT INTO parley_agents (id, spec) VALUES ('x', '{\"brain\": 7}');")
              .exit_code == 0);
  CHECK(f.ask<std::vector<msg::agent_spec>>(msg::load_atom::value,
                                            msg::agent_atom::value, std::string{},
                                            std::int32_t{10})
            .second == msg::error_code::store_failed);
  REQUIRE(db->delete_entry(store::registry::agents, "x"));
  CHECK(f.ask<bool>(caf::put_atom::value, external_agent(did_alice)).first);
}

} // namespace integration_store_registry_test
