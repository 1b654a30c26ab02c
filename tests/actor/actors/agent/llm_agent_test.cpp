#include "actors/agent/llm_agent.hpp"

#include <algorithm>
#include <map>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "caf/event_based_actor.hpp"

#include "actors/room/actor.hpp"
#include "support/actor_fixture.hpp"
#include "messages/agent_messages.hpp"

namespace actor_actors_agent_llm_agent_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::actor_fixture;
namespace msg = parley::messages;

namespace {

/// Stands in for the HTTP client: keeps every request and never answers,
/// so the test answers for the provider.
caf::behavior recording_client(caf::event_based_actor*,
                               std::vector<msg::llm_request>* seen) {
  return {[seen](const msg::llm_request& x) {
    seen->push_back(x);
  }};
}

parley::actors::llm_client_actor
spawn_recording_client(actor_fixture& fx, std::vector<msg::llm_request>& seen) {
  auto client = fx.sys.spawn(recording_client, &seen);
  fx.keep(client);
  // The untyped stand-in takes the one message an agent sends a client.
  return caf::actor_cast<parley::actors::llm_client_actor>(client);
}

/// A room of `members`; those marked LLM get their tools from it.
parley::actors::room_actor room_of(actor_fixture& fx,
                                   std::vector<msg::room_member> members) {
  msg::room_spec spec;
  spec.id = "room-1";
  spec.members = std::move(members);
  spec.events = fx.events;
  auto room = parley::actors::room::spawn_room(fx.sys, spec, fx.timers, fx.negotiations);
  fx.keep(room);
  return room;
}

parley::actors::agent::llm_agent_actor llm_agent(actor_fixture& fx, const std::string& id,
                                                 parley::actors::llm_client_actor client) {
  msg::agent_spec spec;
  spec.id = id;
  spec.profile.display_name = id;
  spec.profile.role = "client";
  parley::actors::agent::llm_agent_options o;
  o.client = std::move(client);
  auto a = parley::actors::agent::spawn_llm_agent(fx.sys, spec, 5, {fx.events}, o);
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
  auto client = spawn_recording_client(fx, seen);
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
  auto client = spawn_recording_client(fx, seen);
  auto alice = llm_agent(fx, "alice", client);
  std::vector<caf::message> bob_inbox;
  auto bob = fx.spawn_probe(bob_inbox);
  auto room = room_of(fx, {{"alice", alice, true}, {"bob", bob, false}});
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
  const auto& record = *fx.seen.negotiation_events.front().record;
  CHECK(record.initiator == "alice");
  CHECK(record.responder == "bob");
  CHECK(record.rounds.front().proposal.amount == 50000);
  CHECK(bob_inbox.size() == 1);
}

TEST_CASE("the room sets the tools of its LLM participants after start", "[actor]") {
  actor_fixture fx;
  std::vector<msg::llm_request> seen;
  auto client = spawn_recording_client(fx, seen);
  auto alice = llm_agent(fx, "alice", client);
  auto bob = llm_agent(fx, "bob", client);
  auto room = room_of(fx, {{"alice", alice, true}, {"bob", bob, false}});
  fx.send(room, msg::transcript_entry{"voice", "carol", "Morning"});
  fx.run();
  fx.advance(2000ms);
  REQUIRE(seen.size() == 2);
  auto tools_of = [](const msg::llm_request& r) {
    json names = json::array();
    for (const auto& t : json::parse(r.body).value("tools", json::array()))
      names.push_back(t["name"]);
    return names;
  };
  // Both heard the line; only alice was named an LLM participant.
  auto with_tools = tools_of(seen[0]).empty() ? seen[1] : seen[0];
  auto without = tools_of(seen[0]).empty() ? seen[0] : seen[1];
  CHECK(tools_of(with_tools) ==
        json{"analyze_and_propose", "evaluate_proposal", "send_message_to_user"});
  CHECK(tools_of(without).empty());

  SECTION("an LLM agent that joins later gets them too") {
    auto carol = llm_agent(fx, "carol", client);
    fx.send(room, msg::join_room{{"carol", carol, true}});
    fx.send(room, msg::transcript_entry{"voice", "carol", "Hello all"});
    fx.run();
    fx.advance(2000ms);
    auto carols = std::count_if(seen.begin(), seen.end(), [&](const auto& r) {
      return tools_of(r).size() == 3 && last_text(r) == "[voice] carol: Hello all";
    });
    CHECK(carols == 1); // alice and bob still wait on their first calls
  }

  SECTION("a tool the agent cannot run is left out with a warning") {
    fx.send(bob, msg::set_tools{{msg::tool_definition{"book_flight", "", {}}}});
    fx.run();
    REQUIRE(fx.seen.problems.size() == 1);
    CHECK(fx.seen.problems[0].code == msg::error_code::invalid_request);
    CHECK(fx.seen.problems[0].message ==
          "set_tools: tool \"book_flight\" has no handler in this agent; left out");
  }
}

TEST_CASE("an offer queued behind a call is dropped when its negotiation ends",
          "[actor]") {
  actor_fixture fx;
  std::vector<msg::llm_request> seen;
  auto client = spawn_recording_client(fx, seen);
  auto alice = llm_agent(fx, "alice", client);
  fx.send(alice, msg::transcript_entry{"voice", "bob", "About the logo"});
  fx.run();
  fx.advance(2000ms);
  REQUIRE(seen.size() == 1); // a call in flight: offers now wait
  fx.send(alice, msg::agent_proposal{"m-1", "neg_1", "bob", msg::proposal{}},
          msg::answer_terms{});
  msg::negotiation_event expired;
  expired.kind = msg::negotiation_event_kind::expired;
  expired.negotiation_id = "neg_1";
  msg::negotiation_record record;
  record.id = "neg_1";
  record.status = msg::negotiation_status::expired;
  expired.record = msg::shared_record{std::move(record)};
  fx.send(alice, expired);
  fx.run();
  fx.send(alice, msg::llm_response{seen[0].call_id, 200, end_turn(), {}, {}});
  fx.run();
  CHECK(seen.size() == 1);                 // the model never saw the offer
  CHECK(fx.seen.agent_events.size() == 1); // "Noted.", and no fallback decision
}

} // namespace actor_actors_agent_llm_agent_test
