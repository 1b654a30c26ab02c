#include "cli/scenario.hpp"

#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/scenario_error.hpp"

namespace unit_cli_scenario_test {

using nlohmann::json;
using parley::messages::bargaining_side;
using parley::messages::brain_kind;
using parley::messages::escrow_preference;
using parley::messages::negotiation_style;
using parley::messages::reply_action;
using parley::cli::inject_type;
using parley::cli::load_scenario;
using parley::cli::parse_scenario;
using parley::cli::scenario_error;

namespace {

/// A small valid scenario; each error test breaks one thing in it.
json valid_scenario() {
  return json::parse(R"({
    "config": {"negotiation": {"round_timeout_ms": 5000}},
    "agents": [
      {"id": "alice", "display_name": "Alice", "role": "client", "brain": "rule",
       "side": "buyer",
       "preferences": {"max_auto_approve_amount": 90000, "negotiation_style": "aggressive",
                       "escrow_preference": "always"},
       "custom_instructions": "Keep it short."},
      {"id": "bob", "display_name": "Bob", "role": "freelancer", "brain": "script",
       "script": [
         {"action": "counter", "proposal": {"amount": 80000}, "reason": "too low",
          "delay_ms": 250},
         {"action": "accept"}
       ]},
      {"id": "carol", "display_name": "Carol", "role": "observer", "brain": "script",
       "script": []}
    ],
    "rooms": [
      {"id": "market", "participants": ["alice", "bob"]},
      {"id": "lobby", "participants": ["alice", "bob", "carol"]}
    ],
    "negotiations": [
      {"room": "market", "at_ms": 10, "initiator": "alice", "responder": "bob",
       "proposal": {"amount": 70000, "escrow": true, "description": "Logo design",
                    "terms": {"deadline_days": 7}},
       "intent_id": "intent-1"},
      {"room": "lobby", "initiator": "carol", "responder": "alice",
       "proposal": {"amount": 1000, "currency": "EUR"}}
    ],
    "inject": [
      {"at_ms": 100, "room": "market", "from": "mallory", "type": "agent_counter",
       "proposal": {"amount": -5}, "reason": "forged", "message_id": "m-1"},
      {"at_ms": 200, "room": "market", "from": "bob", "type": "agent_accept",
       "negotiation": "neg-7"},
      {"room": "lobby", "from": "", "type": "agent_reject"}
    ]
  })");
}

/// Parses `doc` and returns the error's message; fails the test if it parses.
std::string error_of(const json& doc) {
  return parley::test::scenario_error_of(doc.dump(2), "test.json");
}

std::string error_of(const std::string& text) {
  return parley::test::scenario_error_of(text, "test.json");
}

} // namespace

TEST_CASE("a valid scenario parses to the expected model", "[unit]") {
  auto x = parse_scenario(valid_scenario().dump(), "test.json");
  CHECK(x.config == json::parse(R"({"negotiation": {"round_timeout_ms": 5000}})"));

  REQUIRE(x.agents.size() == 3);
  const auto& alice = x.agents[0];
  CHECK(alice.id == "alice");
  CHECK(alice.profile.display_name == "Alice");
  CHECK(alice.profile.role == "client");
  CHECK(alice.profile.custom_instructions == "Keep it short.");
  CHECK(alice.profile.preferences.max_auto_approve_amount == 90000);
  CHECK(alice.profile.preferences.style == negotiation_style::aggressive);
  CHECK(alice.profile.preferences.escrow_preference == escrow_preference::always);
  CHECK(alice.profile.preferences.preferred_currency == "GBP");
  CHECK(alice.profile.preferences.escrow_threshold == 50000);
  CHECK(alice.brain.kind == brain_kind::rule);
  CHECK(alice.brain.side == bargaining_side::buyer);
  CHECK(alice.brain.script.empty());

  const auto& bob = x.agents[1];
  CHECK(bob.id == "bob");
  CHECK(bob.brain.kind == brain_kind::script);
  CHECK(bob.brain.side == bargaining_side::from_role);
  CHECK(bob.profile.preferences.style == negotiation_style::balanced);
  REQUIRE(bob.brain.script.size() == 2);
  CHECK(bob.brain.script[0].action == reply_action::counter);
  REQUIRE(bob.brain.script[0].proposal);
  REQUIRE(bob.brain.script[0].proposal->amount);
  CHECK(*bob.brain.script[0].proposal->amount == 80000);
  CHECK_FALSE(bob.brain.script[0].proposal->currency);
  CHECK(bob.brain.script[0].reason == "too low");
  CHECK(bob.brain.script[0].delay_ms == 250);
  CHECK(bob.brain.script[1].action == reply_action::accept);
  CHECK_FALSE(bob.brain.script[1].proposal);

  CHECK(x.agents[2].brain.kind == brain_kind::script);
  CHECK(x.agents[2].brain.script.empty());

  REQUIRE(x.rooms.size() == 2);
  CHECK(x.rooms[0].id == "market");
  CHECK(x.rooms[0].participants == std::vector<std::string>{"alice", "bob"});
  CHECK(x.rooms[1].participants == std::vector<std::string>{"alice", "bob", "carol"});

  REQUIRE(x.negotiations.size() == 2);
  const auto& first = x.negotiations[0];
  CHECK(first.room == "market");
  CHECK(first.at_ms == 10);
  CHECK(first.initiator == "alice");
  CHECK(first.responder == "bob");
  CHECK(first.intent_id == "intent-1");
  CHECK(first.proposal.amount == 70000);
  CHECK(first.proposal.currency == "GBP");
  CHECK(first.proposal.escrow);
  CHECK(first.proposal.description == "Logo design");
  CHECK(json::parse(first.proposal.terms.text) == json{{"deadline_days", 7}});
  const auto& second = x.negotiations[1];
  CHECK(second.at_ms == 0);
  CHECK(second.proposal.currency == "EUR");
  CHECK_FALSE(second.proposal.escrow);
  CHECK(second.proposal.terms.text == "{}");
  CHECK(second.intent_id.empty());

  REQUIRE(x.inject.size() == 3);
  const auto& forged = x.inject[0];
  CHECK(forged.at_ms == 100);
  CHECK(forged.room == "market");
  CHECK(forged.from == "mallory");
  CHECK(forged.type == inject_type::agent_counter);
  CHECK(forged.negotiation == "current");
  REQUIRE(forged.proposal);
  CHECK(forged.proposal->amount == -5);
  CHECK(forged.proposal->currency == "GBP");
  CHECK(forged.reason == "forged");
  CHECK(forged.message_id == "m-1");
  CHECK(x.inject[1].type == inject_type::agent_accept);
  CHECK(x.inject[1].negotiation == "neg-7");
  CHECK_FALSE(x.inject[1].proposal);
  CHECK(x.inject[1].message_id.empty());
  CHECK(x.inject[2].at_ms == 0);
  CHECK(x.inject[2].from.empty());
  CHECK(x.inject[2].type == inject_type::agent_reject);
}

TEST_CASE("optional sections may be left out", "[unit]") {
  auto doc = valid_scenario();
  doc.erase("config");
  doc.erase("negotiations");
  doc.erase("inject");
  auto x = parse_scenario(doc.dump(), "test.json");
  CHECK(x.config == json::object());
  CHECK(x.negotiations.empty());
  CHECK(x.inject.empty());
}

TEST_CASE("inject types print and parse by name", "[unit]") {
  for (auto type : {inject_type::agent_proposal, inject_type::agent_counter,
                    inject_type::agent_accept, inject_type::agent_reject}) {
    inject_type parsed = inject_type::agent_proposal;
    REQUIRE(from_string(to_string(type), parsed));
    CHECK(parsed == type);
  }
  CHECK(to_string(inject_type::agent_counter) == "agent_counter");
  inject_type parsed = inject_type::agent_proposal;
  CHECK_FALSE(from_string("counter", parsed));
}

TEST_CASE("errors name the source, the location and the reason", "[unit]") {
  auto doc = valid_scenario();
  doc["negotiations"][1]["proposal"]["amount"] = 0;
  try {
    parse_scenario(doc.dump(), "deal.json");
    FAIL("expected an error");
  } catch (const scenario_error& e) {
    CHECK(e.source() == "deal.json");
    CHECK(e.location() == "negotiations[1].proposal.amount");
    CHECK(e.reason() == "amount must be a positive integer in minor units, got 0");
    CHECK(std::string{e.what()} ==
          "deal.json: negotiations[1].proposal.amount: amount must be a positive "
          "integer in minor units, got 0");
  }
}

TEST_CASE("syntax errors are reported by line and column", "[unit]") {
  auto what = error_of(std::string{"{\n  \"agents\": [\n    {\"id\": \"a\",,}\n"});
  CHECK_THAT(what, Catch::StartsWith("test.json: line 3, column 16: invalid JSON"));
  CHECK_THAT(error_of(std::string{}), Catch::StartsWith("test.json: line 1, column 1: "
                                                        "invalid JSON"));
}

TEST_CASE("the document and its sections must have the right types", "[unit]") {
  using Catch::Contains;
  CHECK_THAT(error_of(json::array()),
             Contains("test.json: (document): expected an object, got an array"));
  auto doc = valid_scenario();
  doc["config"] = json::array();
  CHECK_THAT(error_of(doc), Contains("config: expected an object, got an array"));
  doc = valid_scenario();
  doc["agents"] = json::object();
  CHECK_THAT(error_of(doc), Contains("agents: expected an array, got an object"));
  doc = valid_scenario();
  doc["inject"] = "soon";
  CHECK_THAT(error_of(doc), Contains("inject: expected an array, got a string"));
  doc = valid_scenario();
  doc["negotiations"][0]["at_ms"] = 1.5;
  CHECK_THAT(error_of(doc), Contains("negotiations[0].at_ms: expected an integer, got "
                                     "a number with a fraction"));
  doc = valid_scenario();
  doc["rooms"][1]["participants"][0] = 7;
  CHECK_THAT(error_of(doc), Contains("rooms[1].participants[0]: expected a string, got "
                                     "an integer"));
  doc = valid_scenario();
  doc["agents"][0]["preferences"]["negotiation_style"] = "stubborn";
  CHECK_THAT(error_of(doc),
             Contains("agents[0].preferences.negotiation_style: expected "
                      "one of aggressive | balanced | conservative, got "
                      "\"stubborn\""));
}

TEST_CASE("missing required fields are errors", "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc.erase("agents");
  CHECK_THAT(error_of(doc), Contains("test.json: agents: required field is missing"));
  doc = valid_scenario();
  doc.erase("rooms");
  CHECK_THAT(error_of(doc), Contains("test.json: rooms: required field is missing"));
  doc = valid_scenario();
  doc["agents"][0].erase("brain");
  CHECK_THAT(error_of(doc), Contains("agents[0].brain: required field is missing"));
  doc = valid_scenario();
  doc["rooms"][0].erase("participants");
  CHECK_THAT(error_of(doc),
             Contains("rooms[0].participants: required field is missing"));
  doc = valid_scenario();
  doc["negotiations"][0].erase("proposal");
  CHECK_THAT(error_of(doc), Contains("negotiations[0].proposal: required field is "
                                     "missing"));
  doc = valid_scenario();
  doc["negotiations"][1]["proposal"].erase("amount");
  CHECK_THAT(error_of(doc), Contains("negotiations[1].proposal.amount: required field "
                                     "is missing"));
  doc = valid_scenario();
  doc["inject"][0].erase("from");
  CHECK_THAT(error_of(doc), Contains("inject[0].from: required field is missing"));
}

TEST_CASE("unknown fields are errors at every level", "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc["negotiatons"] = json::array();
  CHECK_THAT(error_of(doc), Contains("test.json: negotiatons: unknown field"));
  doc = valid_scenario();
  doc["agents"][0]["nickname"] = "Al";
  CHECK_THAT(error_of(doc), Contains("agents[0].nickname: unknown field"));
  doc = valid_scenario();
  doc["agents"][1]["script"][0]["wait_ms"] = 10;
  CHECK_THAT(error_of(doc), Contains("agents[1].script[0].wait_ms: unknown field"));
  doc = valid_scenario();
  doc["rooms"][0]["topic"] = "logos";
  CHECK_THAT(error_of(doc), Contains("rooms[0].topic: unknown field"));
  doc = valid_scenario();
  doc["negotiations"][0]["proposal"]["price"] = 5;
  CHECK_THAT(error_of(doc), Contains("negotiations[0].proposal.price: unknown field"));
  doc = valid_scenario();
  doc["inject"][2]["to"] = "bob";
  CHECK_THAT(error_of(doc), Contains("inject[2].to: unknown field"));
}

TEST_CASE("agent ids are unique and not empty", "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc["agents"][2]["id"] = "alice";
  CHECK_THAT(error_of(doc),
             Contains("agents[2].id: duplicate agent id \"alice\" (first "
                      "at agents[0])"));
  doc = valid_scenario();
  doc["agents"][1]["id"] = "";
  CHECK_THAT(error_of(doc), Contains("agents[1].id: must not be empty"));
}

TEST_CASE("brains take only their own fields", "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc["agents"][0]["brain"] = "gpt";
  CHECK_THAT(error_of(doc), Contains("agents[0].brain: expected one of rule | script | "
                                     "llm | external | strategy, got \"gpt\""));
  doc = valid_scenario();
  doc["agents"][1].erase("script");
  CHECK_THAT(error_of(doc),
             Contains("agents[1].script: a script brain needs a script"));
  doc = valid_scenario();
  doc["agents"][0]["script"] = json::array();
  CHECK_THAT(error_of(doc), Contains("agents[0].script: only a script brain takes a "
                                     "script"));
  doc = valid_scenario();
  doc["agents"][1]["side"] = "seller";
  CHECK_THAT(error_of(doc),
             Contains("agents[1].side: only a rule or strategy brain takes a side"));
  doc = valid_scenario();
  doc["agents"][0]["strategy"] = "boulware";
  CHECK_THAT(error_of(doc),
             Contains("agents[0].strategy: only a strategy brain takes strategy"));
  doc = valid_scenario();
  doc["agents"][0]["brain"] = "strategy";
  CHECK_THAT(error_of(doc), Contains("agents[0].strategy: a strategy brain needs a "
                                     "strategy"));
  doc["agents"][0]["strategy"] = "stubborn";
  CHECK_THAT(
      error_of(doc),
      Contains("agents[0].strategy: expected one of boulware | "
               "linear | conceder | hardliner | random | tit_for_tat | micro, got "
               "\"stubborn\""));
  doc = valid_scenario();
  doc["agents"][0]["side"] = "from_role";
  CHECK_THAT(error_of(doc), Contains("agents[0].side: expected one of buyer | seller, "
                                     "got \"from_role\""));
  doc = valid_scenario();
  doc["agents"][1]["script"][0].erase("proposal");
  CHECK_THAT(error_of(doc), Contains("agents[1].script[0].proposal: a counter needs a "
                                     "proposal"));
  doc = valid_scenario();
  doc["agents"][1]["script"][1]["action"] = "haggle";
  CHECK_THAT(error_of(doc), Contains("agents[1].script[1].action: expected one of "
                                     "counter | accept | reject | silent"));
}

TEST_CASE("rooms have unique ids and at least two known, distinct participants",
          "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc["rooms"][1]["id"] = "market";
  CHECK_THAT(error_of(doc), Contains("rooms[1].id: duplicate room id \"market\" (first "
                                     "at rooms[0])"));
  doc = valid_scenario();
  doc["rooms"][0]["id"] = "";
  CHECK_THAT(error_of(doc), Contains("rooms[0].id: must not be empty"));
  doc = valid_scenario();
  doc["rooms"][1]["participants"][2] = "zed";
  CHECK_THAT(error_of(doc),
             Contains("rooms[1].participants[2]: unknown agent \"zed\""));
  doc = valid_scenario();
  doc["rooms"][1]["participants"][2] = "alice";
  CHECK_THAT(error_of(doc), Contains("rooms[1].participants[2]: agent \"alice\" is "
                                     "listed twice"));
  doc = valid_scenario();
  doc["rooms"][0]["participants"] = json::array({"alice"});
  CHECK_THAT(error_of(doc), Contains("rooms[0].participants: a room needs at least two "
                                     "participants, got 1"));
}

TEST_CASE("negotiations name a known room and two of its participants", "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc["negotiations"][0]["room"] = "attic";
  CHECK_THAT(error_of(doc), Contains("negotiations[0].room: unknown room \"attic\""));
  doc = valid_scenario();
  doc["negotiations"][0]["initiator"] = "zed";
  CHECK_THAT(error_of(doc),
             Contains("negotiations[0].initiator: unknown agent \"zed\""));
  doc = valid_scenario();
  doc["negotiations"][0]["responder"] = "carol";
  CHECK_THAT(error_of(doc),
             Contains("negotiations[0].responder: agent \"carol\" is not "
                      "a participant of room \"market\""));
  doc = valid_scenario();
  doc["negotiations"][1]["responder"] = "carol";
  CHECK_THAT(error_of(doc),
             Contains("negotiations[1].responder: initiator and responder "
                      "must be different agents, both are \"carol\""));
  doc = valid_scenario();
  doc["negotiations"][1]["at_ms"] = -1;
  CHECK_THAT(error_of(doc), Contains("negotiations[1].at_ms: must be within "
                                     "0..31536000000, got -1"));
}

TEST_CASE("negotiation proposals must be valid", "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc["negotiations"][1]["proposal"]["amount"] = -250;
  CHECK_THAT(error_of(doc),
             Contains("negotiations[1].proposal.amount: amount must be a "
                      "positive integer in minor units, got -250"));
  doc = valid_scenario();
  doc["negotiations"][0]["proposal"]["currency"] = "pounds";
  CHECK_THAT(error_of(doc), Contains("negotiations[0].proposal.currency: currency must "
                                     "be an ISO 4217 code"));
  doc = valid_scenario();
  doc["negotiations"][0]["proposal"]["terms"] = json::array();
  CHECK_THAT(error_of(doc), Contains("negotiations[0].proposal.terms: expected a JSON "
                                     "object, got an array"));
  doc = valid_scenario();
  doc["negotiations"][0]["proposal"]["amount"] = "100";
  CHECK_THAT(error_of(doc), Contains("negotiations[0].proposal.amount: expected an "
                                     "integer, got a string"));
}

TEST_CASE("injections name a known room and carry what their type needs", "[unit]") {
  using Catch::Contains;
  auto doc = valid_scenario();
  doc["inject"][0]["room"] = "attic";
  CHECK_THAT(error_of(doc), Contains("inject[0].room: unknown room \"attic\""));
  doc = valid_scenario();
  doc["inject"][1]["type"] = "agent_withdraw";
  CHECK_THAT(error_of(doc), Contains("inject[1].type: expected one of agent_proposal | "
                                     "agent_counter | agent_accept | agent_reject, got "
                                     "\"agent_withdraw\""));
  doc = valid_scenario();
  doc["inject"][1]["at_ms"] = -5;
  CHECK_THAT(error_of(doc),
             Contains("inject[1].at_ms: must be within 0..31536000000, got -5"));
  doc = valid_scenario();
  doc["inject"][1]["negotiation"] = "";
  CHECK_THAT(error_of(doc),
             Contains("inject[1].negotiation: expected \"current\", \"previous\" or a "
                      "negotiation id"));
  doc = valid_scenario();
  doc["inject"][0].erase("proposal");
  CHECK_THAT(error_of(doc), Contains("inject[0].proposal: an agent_counter needs a "
                                     "proposal"));
  doc = valid_scenario();
  doc["inject"][0]["type"] = "agent_proposal";
  doc["inject"][0].erase("reason");
  doc["inject"][0].erase("proposal");
  CHECK_THAT(error_of(doc), Contains("inject[0].proposal: an agent_proposal needs a "
                                     "proposal"));
  doc = valid_scenario();
  doc["inject"][1]["proposal"] = json{{"amount", 5}};
  CHECK_THAT(error_of(doc), Contains("inject[1].proposal: an agent_accept carries no "
                                     "proposal"));
  doc = valid_scenario();
  doc["inject"][1]["reason"] = "fine";
  CHECK_THAT(error_of(doc), Contains("inject[1].reason: an agent_accept carries no "
                                     "reason"));
  doc = valid_scenario();
  doc["inject"][0]["proposal"]["amount"] = 1.25;
  CHECK_THAT(error_of(doc), Contains("inject[0].proposal.amount: expected an integer, "
                                     "got a number with a fraction"));
  doc = valid_scenario();
  doc["inject"][0]["proposal"]["escrow"] = "yes";
  CHECK_THAT(error_of(doc),
             Contains("inject[0].proposal.escrow: expected true or false, "
                      "got a string"));
}

TEST_CASE("injected senders and amounts are not checked", "[unit]") {
  auto doc = valid_scenario();
  doc["inject"][0]["from"] = "nobody-at-all";
  doc["inject"][0]["proposal"]["amount"] = 0;
  doc["inject"][0]["proposal"]["currency"] = "xx";
  auto x = parse_scenario(doc.dump(), "test.json");
  REQUIRE(x.inject[0].proposal);
  CHECK(x.inject[0].from == "nobody-at-all");
  CHECK(x.inject[0].proposal->amount == 0);
  CHECK(x.inject[0].proposal->currency == "xx");
}

TEST_CASE("load_scenario reads a file and names it in errors", "[unit]") {
  auto dir = std::filesystem::temp_directory_path();
  auto path = (dir / "parley_scenario_test.json").string();
  {
    std::ofstream out{path};
    auto doc = valid_scenario();
    doc["rooms"][0]["participants"][1] = "zed";
    out << doc.dump(2);
  }
  try {
    load_scenario(path);
    FAIL("expected an error");
  } catch (const scenario_error& e) {
    CHECK(e.source() == path);
    CHECK(std::string{e.what()} ==
          path + ": rooms[0].participants[1]: unknown agent \"zed\"");
  }
  {
    std::ofstream out{path};
    out << valid_scenario().dump(2);
  }
  CHECK(load_scenario(path).agents.size() == 3);
  std::filesystem::remove(path);
  try {
    load_scenario(path);
    FAIL("expected an error");
  } catch (const scenario_error& e) {
    CHECK(e.location().empty());
    CHECK_THAT(e.what(), Catch::StartsWith(path + ": cannot open the file: "));
  }
  try {
    load_scenario(dir.string());
    FAIL("expected an error");
  } catch (const scenario_error& e) {
    CHECK_THAT(e.what(), Catch::StartsWith(dir.string() + ": cannot read the file: "));
  }
}

TEST_CASE("every example scenario parses", "[unit]") {
  auto dir = std::filesystem::path{PARLEY_SOURCE_DIR} / "examples" / "scenarios";
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator{dir}) {
    if (entry.path().extension() != ".json")
      continue;
    INFO(entry.path().string());
    auto x = load_scenario(entry.path().string());
    CHECK_FALSE((x.agents.empty() && x.channel_agents.empty()));
    CHECK_FALSE((x.negotiations.empty() && x.ballots.empty() && x.auctions.empty() &&
                 x.demands.empty()));
    ++count;
  }
  CHECK(count >= 4);
}

TEST_CASE("an agent's display name defaults to its id and its role to nothing",
          "[unit]") {
  auto doc = valid_scenario();
  doc["agents"][1].erase("display_name");
  doc["agents"][1].erase("role");
  auto plan = parse_scenario(doc.dump(), "test.json");
  CHECK(plan.agents[1].profile.display_name == "bob");
  CHECK(plan.agents[1].profile.role.empty());
}

TEST_CASE("llm agents and transcript lines parse", "[unit]") {
  auto doc = json::parse(R"({
    "agents": [
      {"id": "alice", "brain": "llm", "provider": "openai", "model": "llama3",
       "endpoint": "http://127.0.0.1:8080/v1"},
      {"id": "bob", "brain": "rule"}],
    "rooms": [{"id": "studio", "participants": ["alice", "bob"]}],
    "transcripts": [{"at_ms": 5, "room": "studio", "speaker": "alice",
                     "text": "£800?"}]})");
  auto s = parse_scenario(doc.dump(), "test.json");
  CHECK(s.agents[0].brain.kind == brain_kind::llm);
  CHECK(s.agents[0].brain.provider == "openai");
  CHECK(s.agents[0].brain.model == "llama3");
  CHECK(s.agents[0].brain.endpoint == "http://127.0.0.1:8080/v1");
  CHECK(s.has_llm_agents());
  REQUIRE(s.transcripts.size() == 1);
  CHECK(s.transcripts[0].at_ms == 5);
  CHECK(s.transcripts[0].source == "voice");
  CHECK(s.transcripts[0].text == "£800?");
  auto bad = doc;
  bad["agents"][1]["model"] = "x";
  CHECK(error_of(bad) == "test.json: agents[1].model: only an llm brain takes model");
  bad = doc;
  bad["agents"][0]["provider"] = "gemini";
  CHECK(error_of(bad) == "test.json: agents[0].provider: expected one of anthropic | "
                         "openai, got \"gemini\"");
  bad = doc;
  bad["transcripts"][0]["room"] = "nowhere";
  CHECK(error_of(bad) == "test.json: transcripts[0].room: unknown room \"nowhere\"");
}

TEST_CASE("the consensus example has ballots with scripted votes and an auction",
          "[unit]") {
  auto x = load_scenario(std::string{PARLEY_SOURCE_DIR} +
                         "/examples/scenarios/task_consensus.json");
  REQUIRE(x.ballots.size() == 2);
  CHECK(x.ballots[0].strategy == parley::messages::ballot_strategy::weighted);
  CHECK(x.ballots[0].votes.size() == 4);
  CHECK(x.ballots[1].roles ==
        std::vector<std::string>{"architect", "strategist", "guardian"});
  REQUIRE(x.auctions.size() == 1);
  CHECK(x.auctions[0].bids.size() == 3);
  CHECK(x.agents[0].profile.capabilities.at("backend") == 0.9);
}

TEST_CASE("ballot votes must name a known agent and not precede the ballot", "[unit]") {
  auto bad = [](const std::string& ballot) {
    try {
      parse_scenario(R"({"agents":[{"id":"a","brain":"rule"}],"rooms":[],"ballots":[)" +
                         ballot + "]}",
                     "t.json");
    } catch (const scenario_error& e) {
      return e.location();
    }
    return std::string{"(accepted)"};
  };
  CHECK(bad(R"({"id":"b","topic":"t","voters":["zed"]})") == "ballots[0].voters[0]");
  CHECK(bad(R"({"id":"b","topic":"t","at_ms":5,"voters":["a"],
               "votes":[{"at_ms":1,"voter":"a","option":"approve"}]})") ==
        "ballots[0].votes[0].at_ms");
  CHECK(bad(R"({"id":"b","topic":"t"})") == "ballots[0]");
}

TEST_CASE("a key given twice is refused at its path, line and column", "[unit]") {
  CHECK(error_of(std::string{
            "{\n  \"agents\": [\n    {\"id\": \"a\", \"id\": \"b\"}\n  ]\n}"}) ==
        "test.json: agents[0].id: duplicate key \"id\" at line 3, column 17");
}

TEST_CASE("an agent id with a control character is refused", "[unit]") {
  auto doc = valid_scenario();
  doc["agents"][0]["id"] = std::string{"al\0ce", 5};
  CHECK_THAT(error_of(doc),
             Catch::Contains("agents[0].id: must not hold a control character, got "
                             "U+0000 at byte 2"));
}

} // namespace unit_cli_scenario_test
