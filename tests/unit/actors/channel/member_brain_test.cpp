#include "actors/channel/member_brain.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "messages/channel_messages.hpp"
#include "messages/json.hpp"

namespace unit_actors_channel_member_brain_test {

using namespace parley::messages;
using parley::actors::channel::member_brain;
using parley::actors::channel::member_message_id;

namespace {

channel_member_spec venue_host(std::int32_t accept_from_round = 1) {
  channel_member_spec x;
  x.profile.agent_id = "ann";
  x.profile.display_name = "Ann";
  x.profile.capabilities = {"catering", "venue"};
  x.accept_from_round = accept_from_round;
  return x;
}

demand_offer demand(std::vector<std::string> tags, std::int32_t round = 1) {
  demand_offer x;
  x.channel_id = "collab-1";
  x.demand_id = "d-1";
  x.surface_demand = "an AI meetup";
  x.capability_tags = std::move(tags);
  x.round = round;
  x.match_score = 70;
  return x;
}

proposal_review review_of(std::int32_t round) {
  proposal_review x;
  x.channel_id = "collab-1";
  x.demand_id = "d-1";
  x.round = round;
  return x;
}

member_round step(scripted_offer offer, scripted_feedback feedback) {
  member_round x;
  x.offer = offer;
  x.feedback = feedback;
  return x;
}

} // namespace

TEST_CASE("message ids are deterministic per channel, agent, round and kind",
          "[unit][channel]") {
  CHECK(member_message_id("collab-1", "ann", 3, "offer") == "collab-1:ann:r3:offer");
  std::vector<std::string> ids{
      member_message_id("c", "a", 1, "offer"), member_message_id("c", "a", 2, "offer"),
      member_message_id("c", "a", 1, "feedback"),
      member_message_id("c", "b", 1, "offer"), member_message_id("d", "a", 1, "offer")};
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t k = i + 1; k < ids.size(); ++k)
      CHECK(ids[i] != ids[k]);
}

TEST_CASE("the rule brain takes part when it has a capability the demand asks for",
          "[unit][channel]") {
  member_brain brain{venue_host()};
  auto y = brain.answer(demand({"speakers", "venue"}, 2));
  REQUIRE(y);
  CHECK(y->message_id == "collab-1:ann:r2:offer");
  CHECK(y->channel_id == "collab-1");
  CHECK(y->agent_id == "ann");
  CHECK(y->display_name == "Ann");
  CHECK(y->response_type == offer_response_type::offer);
  CHECK(y->decision == offer_decision::participate);
  CHECK(y->contribution == "Ann provides venue");
  CHECK(y->confidence == 70);
  CHECK(validate(*y).empty());
  SECTION("the profile's description is the contribution when it has one") {
    auto spec = venue_host();
    spec.profile.description = "A loft for 200 people";
    CHECK(member_brain{spec}.answer(demand({"venue"}))->contribution ==
          "A loft for 200 people");
  }
  SECTION("the same round answered twice is the same message") {
    CHECK(*brain.answer(demand({"venue"}, 2)) == *y);
  }
}

TEST_CASE("the rule brain declines a demand outside its capabilities",
          "[unit][channel]") {
  auto y = member_brain{venue_host()}.answer(demand({"speakers"}));
  REQUIRE(y);
  CHECK(y->decision == offer_decision::decline);
  CHECK(y->contribution.empty());
  CHECK_FALSE(y->decline_reason.empty());
  CHECK(validate(*y).empty());
  CHECK(member_brain{venue_host()}.answer(demand({}))->decision ==
        offer_decision::decline);
}

TEST_CASE("the rule brain negotiates before accept_from_round and accepts from it",
          "[unit][channel]") {
  member_brain brain{venue_host(3)};
  for (std::int32_t round = 1; round <= 5; ++round) {
    auto y = brain.review(review_of(round));
    REQUIRE(y);
    CHECK(y->message_id == "collab-1:ann:r" + std::to_string(round) + ":feedback");
    CHECK(y->agent_id == "ann");
    CHECK(validate(*y).empty());
    if (round < 3) {
      CHECK(y->feedback_type == feedback_type::negotiate);
      CHECK(y->adjustment_request.find("round 3") != std::string::npos);
    } else {
      CHECK(y->feedback_type == feedback_type::accept);
      CHECK(y->adjustment_request.empty());
    }
  }
  CHECK(member_brain{venue_host()}.review(review_of(1))->feedback_type ==
        feedback_type::accept);
}

TEST_CASE("the script brain answers each round as scripted", "[unit][channel]") {
  auto spec = venue_host();
  spec.brain = member_brain_kind::script;
  auto conditional = step(scripted_offer::conditional, scripted_feedback::negotiate);
  conditional.contribution = "half the room";
  conditional.conditions = {"weekdays only"};
  conditional.adjustment_request = "move it to Tuesday";
  auto declined = step(scripted_offer::decline, scripted_feedback::silent);
  spec.script = {step(scripted_offer::participate, scripted_feedback::accept),
                 conditional, declined,
                 step(scripted_offer::silent, scripted_feedback::withdraw)};
  member_brain brain{spec};

  auto r1 = brain.answer(demand({"speakers"}, 1));
  REQUIRE(r1);
  CHECK(r1->decision == offer_decision::participate);
  CHECK(r1->contribution == "Ann takes part"); // no capability asked for, no text
  CHECK(validate(*r1).empty());
  CHECK(brain.review(review_of(1))->feedback_type == feedback_type::accept);

  auto r2 = brain.answer(demand({"venue"}, 2));
  REQUIRE(r2);
  CHECK(r2->decision == offer_decision::conditional);
  CHECK(r2->contribution == "half the room");
  CHECK(r2->conditions == std::vector<std::string>{"weekdays only"});
  auto f2 = brain.review(review_of(2));
  REQUIRE(f2);
  CHECK(f2->feedback_type == feedback_type::negotiate);
  CHECK(f2->adjustment_request == "move it to Tuesday");

  auto r3 = brain.answer(demand({"venue"}, 3));
  REQUIRE(r3);
  CHECK(r3->decision == offer_decision::decline);
  CHECK(r3->decline_reason == "declined by script");
  CHECK_FALSE(brain.review(review_of(3)));

  CHECK_FALSE(brain.answer(demand({"venue"}, 4)));
  CHECK(brain.review(review_of(4))->feedback_type == feedback_type::withdraw);

  // Past the script's end, and before round 1: silent.
  CHECK_FALSE(brain.answer(demand({"venue"}, 5)));
  CHECK_FALSE(brain.review(review_of(5)));
  CHECK_FALSE(brain.answer(demand({"venue"}, 0)));
}

TEST_CASE("a scripted part without a contribution takes the rule brain's",
          "[unit][channel]") {
  auto spec = venue_host();
  spec.brain = member_brain_kind::script;
  spec.script = {step(scripted_offer::participate, scripted_feedback::accept)};
  CHECK(member_brain{spec}.answer(demand({"venue"}))->contribution ==
        "Ann provides venue");
  spec.profile.description = "A loft";
  CHECK(member_brain{spec}.answer(demand({"speakers"}))->contribution == "A loft");
}

TEST_CASE("a member spec needs an agent id and accept_from_round >= 1",
          "[unit][channel]") {
  CHECK(validate(venue_host()).empty());
  auto x = venue_host(0);
  CHECK(validate(x) == "accept_from_round must be at least 1, got 0");
  x = venue_host();
  x.profile.agent_id.clear();
  CHECK(validate(x) == "profile.agent_id is required");
}

TEST_CASE("a member spec round-trips through JSON with the enums' names",
          "[unit][channel]") {
  auto x = venue_host(2);
  x.brain = member_brain_kind::script;
  auto r = step(scripted_offer::conditional, scripted_feedback::silent);
  r.conditions = {"weekdays"};
  x.script = {r, step(scripted_offer::silent, scripted_feedback::withdraw)};
  nlohmann::json j = x;
  CHECK(j["brain"] == "script");
  CHECK(j["script"][0]["offer"] == "conditional");
  CHECK(j["script"][1]["feedback"] == "withdraw");
  CHECK(from_json_value<channel_member_spec>(j) == x);
  auto minimal = from_json_value<channel_member_spec>(
      nlohmann::json::parse(R"({"profile":{"agent_id":"bob"}})"));
  CHECK(minimal.brain == member_brain_kind::rule);
  CHECK(minimal.accept_from_round == 1);
  CHECK_THROWS(from_json_value<channel_member_spec>(
      nlohmann::json::parse(R"({"profile":{"agent_id":"bob"},"brain":"oracle"})")));
}

} // namespace unit_actors_channel_member_brain_test
