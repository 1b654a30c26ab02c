#include "actors/llm/wire_format.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_llm_wire_format_test {

using namespace parley::actors::llm;
using nlohmann::json;

namespace {

json history() {
  return json::array(
      {{{"role", "user"}, {"content", "hello"}},
       {{"role", "assistant"},
        {"content",
         {{{"type", "text"}, {"text", "Let me check."}},
          {{"type", "tool_use"}, {"id", "t1"}, {"name", "f"}, {"input", {{"a", 1}}}}}}},
       {{"role", "user"},
        {"content",
         {{{"type", "tool_result"}, {"tool_use_id", "t1"}, {"content", "ok"}}}}}});
}

std::vector<json> tools() {
  return {{{"name", "f"}, {"description", "d"}, {"parameters", {{"type", "object"}}}}};
}

} // namespace

TEST_CASE("an Anthropic request carries system, messages and input_schema tools",
          "[unit]") {
  auto h = history();
  auto t = tools();
  request_parts parts{"m", 100, "sys", &h, &t};
  auto j = json::parse(build_request(provider_kind::anthropic, parts));
  CHECK(j["system"] == "sys");
  CHECK(j["max_tokens"] == 100);
  CHECK(j["messages"] == h);
  CHECK(j["tools"][0]["input_schema"] == json{{"type", "object"}});
}

TEST_CASE("an OpenAI request maps tool calls and results", "[unit]") {
  auto h = history();
  auto t = tools();
  request_parts parts{"m", 100, "sys", &h, &t};
  auto j = json::parse(build_request(provider_kind::openai, parts));
  auto m = j["messages"];
  REQUIRE(m.size() == 4);
  CHECK(m[0] == json{{"role", "system"}, {"content", "sys"}});
  CHECK(m[2]["tool_calls"][0]["function"]["arguments"] == R"({"a":1})");
  CHECK(m[3] == json{{"role", "tool"}, {"tool_call_id", "t1"}, {"content", "ok"}});
  CHECK(j["tools"][0]["function"]["name"] == "f");
}

TEST_CASE("replies of both formats map to the same blocks", "[unit]") {
  auto a = parse_reply(provider_kind::anthropic,
                       R"({"content":[{"type":"text","text":"hi"},
                           {"type":"tool_use","id":"t1","name":"f","input":{"a":1}}],
                           "stop_reason":"tool_use"})");
  auto o = parse_reply(provider_kind::openai,
                       R"({"choices":[{"message":{"content":"hi","tool_calls":[
                           {"id":"t1","type":"function","function":{"name":"f",
                           "arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]})");
  CHECK(a.error.empty());
  CHECK(o.error.empty());
  CHECK(a.content == o.content);
  CHECK(a.stop_reason == "tool_use");
  CHECK(o.stop_reason == "tool_use");
}

TEST_CASE("unreadable replies are errors, never exceptions", "[unit]") {
  CHECK_FALSE(parse_reply(provider_kind::anthropic, "{not json").error.empty());
  CHECK_FALSE(parse_reply(provider_kind::anthropic, "[]").error.empty());
  CHECK_FALSE(parse_reply(provider_kind::openai, R"({"choices":[]})").error.empty());
  auto bad_args = parse_reply(provider_kind::openai,
                              R"({"choices":[{"message":{"tool_calls":[{"id":"x",
                              "function":{"name":"f","arguments":"{oops"}}]}}]})");
  REQUIRE(bad_args.error.empty());
  CHECK(bad_args.content[0]["input"] == "{oops");
}

TEST_CASE("fields of the wrong type are skipped, never thrown", "[unit]") {
  // Found by llm_reply_fuzz: json::value("type", "") threw on a number.
  auto a = parse_reply(provider_kind::anthropic,
                       R"({"content":[{"type":1},{"type":"text","text":"hi"}],
                           "stop_reason":7})");
  REQUIRE(a.error.empty());
  CHECK(a.content == nlohmann::json::parse(R"([{"type":"text","text":"hi"}])"));
  CHECK(a.stop_reason.empty());
  auto o =
      parse_reply(provider_kind::openai,
                  R"({"choices":[{"message":{"content":"hi"},"finish_reason":[]}]})");
  REQUIRE(o.error.empty());
  CHECK(o.stop_reason.empty());
}

} // namespace unit_actors_llm_wire_format_test
