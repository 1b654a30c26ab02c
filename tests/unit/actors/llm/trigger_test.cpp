#include "actors/llm/trigger.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_llm_trigger_test {

using parley::actors::llm::detect_trigger;

TEST_CASE("amounts with a currency trigger a negotiation", "[unit]") {
  for (auto [text, matched] : std::vector<std::pair<std::string, std::string>>{
           {"Shall we say £500?", "£500"},
           {"ok $12.50 then", "$12.50"},
           {"€3 each", "€3"},
           {"1,200 GBP for all of it", "1,200 GBP"},
           {"maybe 300 pounds", "300 pounds"}}) {
    auto t = detect_trigger(text);
    INFO(text);
    REQUIRE(t);
    CHECK(t->type == "amount");
    CHECK(t->matched_text == matched);
    CHECK(t->confidence == Approx(0.7));
  }
}

TEST_CASE("agreement phrases trigger a negotiation", "[unit]") {
  auto t = detect_trigger("OK, it's a deal then");
  REQUIRE(t);
  CHECK(t->type == "agreement");
  CHECK(detect_trigger("Sounds good to me")->matched_text == "Sounds good");
  CHECK_FALSE(detect_trigger("I have 3 cats and an idea"));
  CHECK_FALSE(detect_trigger("ideally tomorrow"));
}

} // namespace unit_actors_llm_trigger_test
