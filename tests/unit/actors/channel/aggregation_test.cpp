#include "actors/channel/aggregation.hpp"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_channel_aggregation_test {

using namespace parley::actors::channel;
using namespace parley::messages;

namespace {

offer_response answer(const std::string& agent, offer_decision decision) {
  offer_response x;
  x.agent_id = agent;
  x.display_name = "Agent " + agent;
  x.decision = decision;
  x.contribution = agent + "'s part";
  return x;
}

aggregation_input round_of(std::int32_t invited, std::vector<offer_response> offers) {
  return {"collab-1", "d-1", "an AI meetup", 3, invited, std::move(offers), 42, {}, {}};
}

/// A round whose demand needs `tags`, among agents offering `capabilities`.
aggregation_input
needing(std::vector<std::string> tags, std::vector<offer_response> offers,
        std::map<std::string, std::vector<std::string>> capabilities) {
  auto in = round_of(static_cast<std::int32_t>(offers.size()), std::move(offers));
  in.capability_tags = std::move(tags);
  in.capabilities = std::move(capabilities);
  return in;
}

} // namespace

TEST_CASE("aggregation assigns every offer that takes part, in order",
          "[unit][channel]") {
  auto conditional = answer("cat", offer_decision::conditional);
  conditional.conditions = {"weekend only"};
  conditional.negotiation_points = {{"date", "Friday", "Saturday", ""}};
  auto x = aggregate(round_of(3, {answer("ann", offer_decision::participate),
                                  answer("bob", offer_decision::decline), conditional}),
                     channel_settings{});
  CHECK(x.proposal_id == "collab-1-v3");
  CHECK(x.demand_id == "d-1");
  CHECK(x.version == 3);
  CHECK(x.objective == "an AI meetup");
  CHECK(x.created_at == 42);
  CHECK(x.gaps.empty());
  REQUIRE(x.assignments.size() == 2);
  CHECK(x.assignments[0].agent_id == "ann");
  CHECK(x.assignments[0].role == "participate");
  CHECK(x.assignments[0].responsibility == "ann's part");
  CHECK(x.assignments[0].is_confirmed);
  CHECK(x.assignments[1].agent_id == "cat");
  CHECK_FALSE(x.assignments[1].is_confirmed);
  CHECK(x.assignments[1].notes == "weekend only; date: Saturday");
  CHECK(x.summary == "2 of 3 candidates take part");
  CHECK(validate(x, 5).empty());
}

TEST_CASE("aggregation's confidence is the share of the invited who take part",
          "[unit][channel]") {
  auto yes = answer("a", offer_decision::participate);
  auto no = answer("b", offer_decision::decline);
  channel_settings s;
  CHECK(aggregate(round_of(5, {yes, yes, yes, yes}), s).confidence ==
        confidence_level::high);
  CHECK(aggregate(round_of(2, {yes, no}), s).confidence == confidence_level::medium);
  CHECK(aggregate(round_of(3, {yes}), s).confidence == confidence_level::low);
  CHECK(aggregate(round_of(0, {}), s).confidence == confidence_level::low);
}

TEST_CASE("a demand's tag that nobody taking part offers is a gap", "[unit][channel]") {
  std::map<std::string, std::vector<std::string>> offered{
      {"ann", {"venue"}}, {"bob", {"speaker", "music"}}, {"cat", {"catering"}}};
  SECTION("a declined offer covers nothing; tags compare as selection does") {
    auto x = aggregate(needing({"Venue ", "speaker", "catering", "photos"},
                               {answer("ann", offer_decision::participate),
                                answer("bob", offer_decision::conditional),
                                answer("cat", offer_decision::decline)},
                               offered),
                       channel_settings{});
    REQUIRE(x.gaps.size() == 2);
    CHECK(x.gaps[0].capability_tags == std::vector<std::string>{"catering"});
    CHECK(x.gaps[0].description == "no participant offers catering");
    CHECK(x.gaps[1].capability_tags == std::vector<std::string>{"photos"});
    CHECK(validate(x, 5).empty());
  }
  SECTION("everything covered: no gap") {
    auto x = aggregate(needing({"venue", "music"},
                               {answer("ann", offer_decision::participate),
                                answer("bob", offer_decision::participate)},
                               offered),
                       channel_settings{});
    CHECK(x.gaps.empty());
  }
  SECTION("nobody takes part: every tag is a gap, each once, in order") {
    auto x = aggregate(needing({"场地提供", "venue", "场地提供", " "},
                               {answer("ann", offer_decision::decline)}, offered),
                       channel_settings{});
    REQUIRE(x.gaps.size() == 2);
    CHECK(x.gaps[0].capability_tags == std::vector<std::string>{"场地提供"});
    CHECK(x.gaps[1].capability_tags == std::vector<std::string>{"venue"});
  }
  SECTION("an agent whose capabilities are unknown covers nothing") {
    auto x = aggregate(
        needing({"venue"}, {answer("dan", offer_decision::participate)}, offered),
        channel_settings{});
    REQUIRE(x.gaps.size() == 1);
  }
}

} // namespace unit_actors_channel_aggregation_test
