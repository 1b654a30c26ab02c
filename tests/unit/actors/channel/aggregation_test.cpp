#include "actors/channel/aggregation.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

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
  return {"collab-1", "d-1", "an AI meetup", 3, invited, std::move(offers), 42};
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
