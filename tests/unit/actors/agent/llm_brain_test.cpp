#include "actors/agent/llm_brain.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "actors/llm/tools.hpp"

namespace unit_actors_agent_llm_brain_test {

using nlohmann::json;
using parley::actors::agent::llm_brain;
using parley::actors::agent::llm_output;
using parley::actors::agent::offer_context;
namespace msg = parley::messages;

namespace {

llm_brain make_brain() {
  msg::agent_profile profile;
  profile.display_name = "Bob";
  profile.role = "freelancer";
  profile.preferences.max_auto_approve_amount = 100000;
  return llm_brain{msg::bargaining_side::seller, profile, {}};
}

offer_context offer(const std::string& negotiation_id, std::int64_t amount) {
  offer_context x;
  x.negotiation_id = negotiation_id;
  x.incoming.amount = amount;
  x.incoming.description = "Logo";
  return x;
}

/// An Anthropic answer calling one tool.
std::string calls(const std::string& tool, json input) {
  return json{{"content",
               {{{"type", "tool_use"},
                 {"id", "t1"},
                 {"name", tool},
                 {"input", std::move(input)}}}},
              {"stop_reason", "tool_use"}}
      .dump();
}

std::string done() {
  return json{{"content", {{{"type", "text"}, {"text", "Done."}}}},
              {"stop_reason", "end_turn"}}
      .dump();
}

json tool_names(const std::string& body) {
  auto request = json::parse(body);
  json names = json::array();
  for (const auto& t : request.value("tools", json::array()))
    names.push_back(t["name"]);
  return names;
}

/// The last user turn of the request: the text, or the first tool result.
std::string last_user_turn(const std::string& body) {
  auto last = json::parse(body)["messages"].back();
  if (last["content"].is_string())
    return last["content"].get<std::string>();
  return last["content"][0]["content"].get<std::string>();
}

const llm_output* find(const std::vector<llm_output>& out, llm_output::kind what) {
  for (const auto& o : out)
    if (o.what == what)
      return &o;
  return nullptr;
}

} // namespace

TEST_CASE("the model is offered only the tools the room set", "[unit]") {
  auto brain = make_brain();
  brain.on_text("[voice] alice: hello");
  auto body = brain.next_call();
  REQUIRE(body);
  CHECK(json::parse(*body).count("tools") == 0); // no tools before they are set

  SECTION("once set, every request carries them with their schemas") {
    brain.on_reply(done());
    CHECK(brain.set_tools(parley::actors::llm::agent_tools()).empty());
    brain.on_text("[voice] alice: still there?");
    body = brain.next_call();
    REQUIRE(body);
    CHECK(tool_names(*body) ==
          json{"analyze_and_propose", "evaluate_proposal", "send_message_to_user"});
    auto evaluate = json::parse(*body)["tools"][1];
    CHECK(evaluate["input_schema"]["properties"]["decision"]["enum"] ==
          json{"accept", "counter", "reject"});
  }

  SECTION("a tool that was not set is unknown to the model") {
    brain.on_reply(done());
    brain.set_tools({parley::actors::llm::agent_tools()[2]}); // send_message_to_user
    brain.on_offer(offer("neg_1", 10000), "[INCOMING PROPOSAL from alice]");
    REQUIRE(brain.next_call());
    auto out = brain.on_reply(
        calls("evaluate_proposal", {{"decision", "accept"}, {"reason", "fine"}}));
    auto* call = find(out, llm_output::kind::tool_call);
    REQUIRE(call != nullptr);
    CHECK(call->text == "Error: Unknown tool \"evaluate_proposal\"");
    CHECK(find(out, llm_output::kind::decision) == nullptr);
    body = brain.next_call();
    REQUIRE(body);
    CHECK(last_user_turn(*body) == "Error: Unknown tool \"evaluate_proposal\"");
  }
}

TEST_CASE("set_tools refuses what the agent cannot run and keeps the rest", "[unit]") {
  auto brain = make_brain();
  auto tools = parley::actors::llm::agent_tools();
  tools.push_back(msg::tool_definition{"book_flight", "Books a flight", {}});
  tools[0].parameters.text = "[1, 2]";
  auto refused = brain.set_tools(tools);
  REQUIRE(refused.size() == 2);
  CHECK(refused[0] ==
        "tool \"analyze_and_propose\" has parameters that are not a JSON object");
  CHECK(refused[1] == "tool \"book_flight\" has no handler in this agent");
  brain.on_text("hello");
  auto body = brain.next_call();
  REQUIRE(body);
  CHECK(tool_names(*body) == json{"evaluate_proposal", "send_message_to_user"});

  SECTION("a later set replaces the earlier one") {
    brain.on_reply(done());
    brain.set_tools({});
    brain.on_text("again");
    body = brain.next_call();
    REQUIRE(body);
    CHECK(json::parse(*body).count("tools") == 0);
  }
}

TEST_CASE("offers of an ended negotiation are never shown to the model", "[unit]") {
  auto brain = make_brain();
  brain.set_tools(parley::actors::llm::agent_tools());
  brain.on_text("[voice] alice: let's talk");
  REQUIRE(brain.next_call()); // busy: what follows waits
  brain.on_offer(offer("neg_1", 10000), "[INCOMING PROPOSAL from alice] neg_1");
  brain.on_offer(offer("neg_2", 20000), "[INCOMING PROPOSAL from carol] neg_2");
  brain.on_ended("neg_1");
  CHECK(brain.queued() == 1);
  CHECK(find(brain.on_reply(done()), llm_output::kind::decision) == nullptr);
  auto body = brain.next_call();
  REQUIRE(body);
  CHECK(last_user_turn(*body) == "[INCOMING PROPOSAL from carol] neg_2");
}

TEST_CASE("an offer whose negotiation ends during evaluation gets no answer",
          "[unit]") {
  auto brain = make_brain();
  brain.set_tools(parley::actors::llm::agent_tools());
  brain.on_offer(offer("neg_1", 10000), "[INCOMING PROPOSAL from alice]");
  REQUIRE(brain.next_call());
  brain.on_ended("neg_1");
  auto out = brain.on_reply(
      calls("evaluate_proposal", {{"decision", "accept"}, {"reason", "fine"}}));
  CHECK(find(out, llm_output::kind::decision) == nullptr);
  auto* call = find(out, llm_output::kind::tool_call);
  REQUIRE(call != nullptr);
  CHECK(call->text == "Error: negotiation neg_1 has already ended; there is nothing "
                      "to answer");
  REQUIRE(brain.next_call());
  // The model stops: no fallback decision either, the turn just ends.
  out = brain.on_reply(done());
  CHECK(find(out, llm_output::kind::decision) == nullptr);
  CHECK_FALSE(brain.busy());
}

TEST_CASE("without tools the rule brain answers an offer", "[unit]") {
  auto brain = make_brain();
  brain.on_offer(offer("neg_1", 10000), "[INCOMING PROPOSAL from alice]");
  REQUIRE(brain.next_call());
  auto out = brain.on_reply(done());
  auto* decision = find(out, llm_output::kind::decision);
  REQUIRE(decision != nullptr);
  CHECK(decision->fallback);
  CHECK(decision->negotiation_id == "neg_1");
}

} // namespace unit_actors_agent_llm_brain_test
