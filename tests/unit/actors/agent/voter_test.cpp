#include "actors/agent/voter.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_agent_voter_test {

using namespace parley::actors::agent;
using namespace parley::messages;

namespace {

agent_profile profile(std::string role, std::map<std::string, double> caps,
                      double load) {
  agent_profile x;
  x.role = std::move(role);
  x.capabilities = std::move(caps);
  x.load = load;
  return x;
}

ballot_spec ballot(ballot_strategy strategy, std::string task,
                   std::vector<std::string> options = {"approve", "reject"}) {
  ballot_spec x;
  x.id = "b1";
  x.strategy = strategy;
  x.task = std::move(task);
  x.options = std::move(options);
  return x;
}

} // namespace

TEST_CASE("a rule agent approves when fit and not overloaded", "[unit]") {
  auto b = ballot(ballot_strategy::majority, "frontend");
  CHECK(decide_vote("a", profile("builder", {{"frontend", 0.5}}, 0.79), b) ==
        "approve");
  CHECK(decide_vote("a", profile("builder", {{"frontend", 0.49}}, 0), b) == "reject");
  CHECK(decide_vote("a", profile("builder", {{"frontend", 0.9}}, 0.8), b) == "reject");
  // No task, or no such capability: fitness 0.5.
  CHECK(decide_vote("a", profile("builder", {}, 0), b) == "approve");
}

TEST_CASE("a guardian or strategist with no fitness vetoes a veto ballot", "[unit]") {
  auto b = ballot(ballot_strategy::veto, "frontend");
  auto unfit = std::map<std::string, double>{{"frontend", 0.1}};
  CHECK(decide_vote("a", profile("guardian", unfit, 0), b) == "veto");
  CHECK(decide_vote("a", profile("strategist", unfit, 0), b) == "veto");
  CHECK(decide_vote("a", profile("builder", unfit, 0), b) == "reject");
  CHECK(decide_vote("a", profile("guardian", unfit, 0),
                    ballot(ballot_strategy::majority, "frontend")) == "reject");
}

TEST_CASE("on other ballots a rule agent picks its strongest capability", "[unit]") {
  auto b = ballot(ballot_strategy::weighted, "", {"frontend", "backend", "reject"});
  CHECK(decide_vote("a", profile("builder", {{"frontend", 0.2}, {"backend", 0.6}}, 0),
                    b) == "backend");
  auto who = ballot(ballot_strategy::majority, "", {"ann", "bob"});
  CHECK(decide_vote("bob", profile("builder", {}, 0), who) == "bob");
  CHECK(decide_vote("cat", profile("builder", {}, 0), who) == "ann");
}

TEST_CASE("a rule agent bids its capability, load and a duration estimate", "[unit]") {
  auction_spec a;
  a.id = "a1";
  a.task = "frontend";
  a.base_duration_ms = 1000;
  auto b = decide_bid("ann", profile("architect", {{"frontend", 0.8}}, 0.5), a);
  REQUIRE(b);
  CHECK(b->capability == 0.8);
  CHECK(b->load == 0.5);
  CHECK(b->estimated_duration_ms == 1875); // 1000 * 1.5 / 0.8
  CHECK_FALSE(decide_bid("bob", profile("builder", {{"backend", 1}}, 0), a));
  CHECK_FALSE(decide_bid("bob", profile("builder", {{"frontend", 0}}, 0), a));
}

} // namespace unit_actors_agent_voter_test
