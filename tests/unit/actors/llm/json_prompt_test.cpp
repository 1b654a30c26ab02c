#include "actors/llm/json_prompt.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_llm_json_prompt_test {

using namespace parley::actors::llm;
using nlohmann::json;

TEST_CASE("a prompt is in the language of its demand", "[unit][llm]") {
  CHECK(language_of("我想在北京办一场AI主题聚会") == prompt_language::chinese);
  CHECK(language_of("an AI meetup in 北京") == prompt_language::chinese);
  CHECK(language_of("an AI meetup in Berlin, café") == prompt_language::english);
  CHECK(language_of("") == prompt_language::english);
  CHECK(language_of("\xE4\xB8") == prompt_language::english); // cut ideograph
  CHECK(language_of("\xFF\xFE 聚会") == prompt_language::chinese);
}

TEST_CASE("the JSON object of an answer is found inside fences and text",
          "[unit][llm]") {
  CHECK(find_json_object(R"({"a": 1})").value == json{{"a", 1}});
  CHECK(find_json_object("```json\n{\"a\": \"聚会\"}\n```").value ==
        json{{"a", "聚会"}});
  CHECK(find_json_object("Here it is:\n```\n{\"a\": 1}\n```\nDone.").value ==
        json{{"a", 1}});
  CHECK(find_json_object("Sure! {\"a\": {\"b\": 2}} Hope that helps.").value ==
        json{{"a", {{"b", 2}}}});
}

TEST_CASE("an answer without one JSON object says why", "[unit][llm]") {
  CHECK(find_json_object("").error == "the answer is empty");
  CHECK(find_json_object("  \n").error == "the answer is empty");
  CHECK(find_json_object("no idea").error == "the answer holds no JSON object");
  CHECK(find_json_object("[1, 2]").error == "the answer holds no JSON object");
  CHECK(find_json_object("{\"a\": }").error == "the answer is not valid JSON");
  CHECK(find_json_object("} backwards {").error == "the answer holds no JSON object");
  std::string deep(100, '[');
  CHECK(find_json_object("{\"a\": " + deep + "}").error ==
        "the answer nests deeper than 32");
}

TEST_CASE("a text request keeps the prompt's UTF-8 intact", "[unit][llm]") {
  text_prompt prompt{"系统", "需求：我想在北京办一场AI主题聚会"};
  auto anthropic =
      json::parse(build_text_request(provider_kind::anthropic, "m", 512, prompt));
  CHECK(anthropic.at("system") == "系统");
  CHECK(anthropic.at("max_tokens") == 512);
  CHECK(anthropic.at("messages").at(0).at("content") == prompt.user);
  CHECK_FALSE(anthropic.contains("tools"));
  auto openai = build_text_request(provider_kind::openai, "m", 512, prompt);
  CHECK(openai.find(prompt.user) != std::string::npos);
}

} // namespace unit_actors_llm_json_prompt_test
