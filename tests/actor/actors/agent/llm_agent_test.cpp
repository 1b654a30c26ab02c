#include "actors/agent/llm_agent.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "caf/event_based_actor.hpp"

#include "actors/room/actor.hpp"
#include "support/actor_fixture.hpp"

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::actor_fixture;
namespace msg = parley::messages;

namespace {

/// Stands in for the HTTP client: keeps every request and never answers,
/// so the test answers for the provider.
caf::behavior stub_client(caf::event_based_actor*,
                          std::vector<msg::llm_request>* seen) {
  return {[seen](const msg::llm_request& x) {
    seen->push_back(x);
  }};
}

caf::actor llm_agent(actor_fixture& fx, const std::string& id, caf::actor client) {
  msg::agent_spec spec;
  spec.id = id;
  spec.profile.display_name = id;
  spec.profile.role = "client";
  parley::actors::agent::llm_agent_options o;
  o.client = std::move(client);
  auto a = parley::actors::agent::spawn_llm_agent(fx.sys, spec, 5, fx.bus, o);
  fx.keep(a);
  return a;
}

/// The text of the last user turn that is plain text.
std::string last_text(const msg::llm_request& r) {
  auto m = json::parse(r.body)["messages"];
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    if ((*it)["content"].is_string())
      return (*it)["content"].get<std::string>();
  return {};
}

std::string end_turn() {
  return json{{"content", {{{"type", "text"}, {"text", "Noted."}}}},
              {"stop_reason", "end_turn"}}
      .dump();
}

} // namespace

TEST_CASE("transcript entries within the window make one turn", "[actor]") {
  actor_fixture fx;
  std::vector<msg::llm_request> seen;
  auto client = fx.sys.spawn(stub_client, &seen);
  fx.keep(client);
  auto alice = llm_agent(fx, "alice", client);
  fx.send(alice, msg::transcript_entry{"voice", "alice", "Hi Bob"});
  fx.run();
  fx.advance(500ms);
  fx.send(alice, msg::transcript_entry{"voice", "bob", "Hi Alice"});
  fx.run();
  fx.advance(1500ms);
  fx.send(alice, msg::transcript_entry{"chat", "alice", "About the logo"});
  fx.run();
  fx.advance(1999ms);
  CHECK(seen.empty()); // each entry restarts the 2 s window
  fx.advance(1ms);
  REQUIRE(seen.size() == 1);
  CHECK(last_text(seen[0]) ==
        "[voice] alice: Hi Bob\n[voice] bob: Hi Alice\n[chat] alice: About the logo");

  SECTION("a batch that arrives during a call waits for it") {
    fx.send(alice, msg::transcript_entry{"voice", "bob", "Any news?"});
    fx.run();
    fx.advance(2000ms);
    CHECK(seen.size() == 1);
    fx.send(alice, msg::llm_response{seen[0].call_id, 200, end_turn(), {}, {}});
    fx.run();
    REQUIRE(seen.size() == 2);
    CHECK(last_text(seen[1]) == "[voice] bob: Any news?");
    CHECK(fx.seen.agent_events.size() == 1);
    CHECK(fx.seen.agent_events[0].text == "Noted.");
  }
}

TEST_CASE("a trigger in the room starts a negotiation through the speaker's agent",
          "[actor]") {
  actor_fixture fx;
  std::vector<msg::llm_request> seen;
  auto client = fx.sys.spawn(stub_client, &seen);
  fx.keep(client);
  auto alice = llm_agent(fx, "alice", client);
  std::vector<caf::message> bob_inbox;
  auto bob = fx.spawn_probe(bob_inbox);
  msg::room_spec spec;
  spec.id = "room-1";
  spec.participants = {{"alice", alice}, {"bob", bob}};
  spec.bus = fx.bus;
  auto room = parley::actors::room::spawn_room(fx.sys, spec);
  fx.keep(room);
  fx.send(room, msg::transcript_entry{"voice", "bob", "Morning"});
  fx.send(room,
          msg::transcript_entry{"voice", "alice", "Shall we say £500 for the logo?"});
  fx.run();
  REQUIRE(seen.size() == 1);
  auto text = last_text(seen[0]);
  CHECK(text.find("[NEGOTIATION TRIGGERED]\nTrigger type: amount\nMatched: £500\n"
                  "Confidence: 0.7\n") == 0);
  CHECK(text.find("=== Conversation ===\n[voice] bob: Morning\n[voice] alice: Shall we "
                  "say £500 for the logo?") != std::string::npos);
  json answer = {{"content",
                  {{{"type", "tool_use"},
                    {"id", "t1"},
                    {"name", "analyze_and_propose"},
                    {"input", {{"amount", 50000}, {"description", "Logo"}}}}}},
                 {"stop_reason", "tool_use"}};
  fx.send(alice, msg::llm_response{seen[0].call_id, 200, answer.dump(), {}, {}});
  fx.run();
  REQUIRE_FALSE(fx.seen.negotiation_events.empty());
  auto& record = fx.seen.negotiation_events.front().record;
  CHECK(record.initiator == "alice");
  CHECK(record.responder == "bob");
  CHECK(record.rounds.front().proposal.amount == 50000);
  CHECK(bob_inbox.size() == 1);
}
