#include "actors/ballot/actor.hpp"

#include <catch2/catch.hpp>

#include "actors/agent/actor.hpp"
#include "support/actor_fixture.hpp"

namespace actor_actors_ballot_actor_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::test::actor_fixture;

namespace {

ballot_spec spec_of(ballot_strategy strategy, std::size_t voters) {
  ballot_spec x;
  x.id = "b1";
  x.topic = "ship it?";
  x.strategy = strategy;
  for (std::size_t i = 1; i <= voters; ++i)
    x.voters.push_back({"v" + std::to_string(i), "builder"});
  return x;
}

parley::actors::ballot_actor open(actor_fixture& f, ballot_spec spec) {
  auto b = parley::actors::ballot::open(*f.ballots, std::move(spec), {f.events, {}, {}},
                                        f.timers);
  f.run();
  return b;
}

std::vector<ballot_event_kind> kinds(const actor_fixture& f) {
  std::vector<ballot_event_kind> xs;
  for (const auto& x : f.seen.ballot_events)
    xs.push_back(x.kind);
  return xs;
}

} // namespace

TEST_CASE("the 5 s window resolves a ballot without all votes", "[actor]") {
  actor_fixture f;
  auto b = open(f, spec_of(ballot_strategy::majority, 5));
  f.send(b, vote{"b1", "v1", "approve"});
  f.send(b, vote{"b1", "v2", "approve"});
  f.run();
  CHECK(kinds(f) == std::vector<ballot_event_kind>{ballot_event_kind::propose,
                                                   ballot_event_kind::vote,
                                                   ballot_event_kind::vote});
  f.advance(4999ms);
  CHECK(f.seen.ballot_events.size() == 3);
  f.advance(1ms);
  REQUIRE(f.seen.ballot_events.size() == 4);
  const auto& last = f.seen.ballot_events.back();
  CHECK(last.kind == ballot_event_kind::result);
  CHECK(last.at_ms - f.seen.ballot_events.front().at_ms == 5000);
  REQUIRE(last.outcome);
  CHECK(last.outcome->status == ballot_status::rejected); // 3 abstentions
  CHECK(last.outcome->voted == 2);
  CHECK_FALSE(last.outcome->early);
  CHECK(f.seen.problems.empty());
}

TEST_CASE("a vote for a ballot whose window closed is refused with E024, however late",
          "[actor]") {
  actor_fixture f;
  auto b = open(f, spec_of(ballot_strategy::majority, 3));
  f.send(b, vote{"b1", "v1", "approve"});
  f.run();
  f.advance(5000ms); // the window closes: rejected, and the actor is released
  REQUIRE(f.seen.ballot_events.back().kind == ballot_event_kind::result);
  auto events = f.seen.ballot_events.size();
  f.send(b, vote{"b1", "v2", "approve"});
  f.run();
  REQUIRE(f.seen.codes() == std::vector<error_code>{error_code::voting_closed});
  CHECK(f.seen.problems.back().negotiation_id == "b1");
  CHECK(f.seen.problems.back().agent_id == "v2");
  CHECK(f.seen.problems.back().severity == severity::error);
  f.advance(24h); // a day later: still refused, nothing else changes
  f.send(b, vote{"b1", "v3", "reject"});
  f.run();
  CHECK(f.seen.codes() ==
        std::vector<error_code>{error_code::voting_closed, error_code::voting_closed});
  CHECK(f.seen.problems.back().agent_id == "v3");
  CHECK(f.seen.ballot_events.size() == events);
}

TEST_CASE("a vote after everyone voted on an early result is refused with E024",
          "[actor]") {
  actor_fixture f;
  auto b = open(f, spec_of(ballot_strategy::majority, 3));
  f.send(b, vote{"b1", "v1", "approve"});
  f.send(b, vote{"b1", "v2", "approve"}); // approved early
  f.send(b, vote{"b1", "v3", "reject"});  // late (E024), and everyone has voted
  f.send(b, vote{"b1", "v3", "reject"});  // the ballot's actor has gone back
  f.send(b, vote{"b1", "v1", "reject"});
  f.run();
  CHECK(f.seen.codes() == std::vector<error_code>{error_code::voting_closed,
                                                  error_code::voting_closed,
                                                  error_code::voting_closed});
}

TEST_CASE("a ballot resolves early once the outcome cannot change", "[actor]") {
  actor_fixture f;
  auto b = open(f, spec_of(ballot_strategy::majority, 3));
  f.send(b, vote{"b1", "v1", "approve"});
  f.send(b, vote{"b1", "v2", "approve"});
  f.run();
  REQUIRE(f.seen.ballot_events.size() == 4);
  const auto& result = f.seen.ballot_events.back();
  CHECK(result.kind == ballot_event_kind::result);
  CHECK(result.at_ms == f.seen.ballot_events.front().at_ms); // no time passed
  REQUIRE(result.outcome);
  CHECK(result.outcome->status == ballot_status::approved);
  CHECK(result.outcome->early);
}

TEST_CASE("votes after resolution are refused with E024 and change nothing",
          "[actor]") {
  actor_fixture f;
  auto b = open(f, spec_of(ballot_strategy::unanimous, 4));
  f.send(b, vote{"b1", "v1", "approve"});
  f.send(b, vote{"b1", "v2", "reject"}); // dissent: rejected at once
  f.run();
  REQUIRE(f.seen.ballot_events.back().kind == ballot_event_kind::result);
  f.send(b, vote{"b1", "v3", "approve"});
  f.send(b, vote{"b1", "v2", "approve"});
  f.send(b, vote{"b1", "mallory", "approve"});
  f.run();
  CHECK(f.seen.codes() == std::vector<error_code>{error_code::voting_closed,
                                                  error_code::already_cast,
                                                  error_code::not_eligible});
  CHECK(f.seen.problems.front().negotiation_id == "b1");
  CHECK(f.seen.problems.front().agent_id == "v3");
  CHECK(f.seen.ballot_events.size() == 4); // propose, 2 votes, result
  f.advance(5000ms);                       // the window closes: nothing new
  CHECK(f.seen.ballot_events.size() == 4);
}

TEST_CASE("rule agents vote when invited, and the reporter gets the result", "[actor]") {
  actor_fixture f;
  std::map<std::string, parley::actors::agent_actor> agents;
  std::vector<std::pair<std::string, double>> members = {
      {"ann", 0.9}, {"bob", 0.7}, {"cat", 0.1}};
  auto spec = spec_of(ballot_strategy::majority, 0);
  spec.task = "frontend";
  for (const auto& [id, cap] : members) {
    agent_spec a;
    a.id = id;
    a.profile.role = "builder";
    a.profile.capabilities = {{"frontend", cap}};
    agents.emplace(id, parley::actors::agent::spawn_agent(f.sys, a, 5, {f.events}));
    f.keep(agents.at(id));
    spec.voters.push_back({id, "builder"});
  }
  std::vector<caf::message> inbox;
  auto reporter = f.spawn_listener(inbox);
  parley::actors::ballot::open(*f.ballots, spec, {f.events, reporter, agents}, f.timers);
  f.run();
  REQUIRE(f.seen.ballot_events.back().kind == ballot_event_kind::result);
  const auto& outcome = *f.seen.ballot_events.back().outcome;
  CHECK(outcome.status == ballot_status::approved);
  CHECK(outcome.early); // ann and bob approve: 2 of 3
  // cat (capability 0.1) rejects after the early resolution: refused.
  CHECK(f.seen.codes() == std::vector<error_code>{error_code::voting_closed});
  CHECK(f.seen.problems.front().agent_id == "cat");
  REQUIRE(inbox.size() == 1);
  REQUIRE(inbox.front().match_elements<ballot_event>());
  CHECK(inbox.front().get_as<ballot_event>(0).outcome->winner == "approve");
}

TEST_CASE("an invalid ballot spec is refused with E027", "[actor]") {
  actor_fixture f;
  open(f, spec_of(ballot_strategy::majority, 0));
  CHECK(f.seen.codes() == std::vector<error_code>{error_code::invalid_ballot});
  CHECK(f.seen.ballot_events.empty());
}

TEST_CASE(
    "a ballot's actor takes the next ballot and still refuses votes for the first",
    "[actor]") {
  actor_fixture f;
  auto first = open(f, spec_of(ballot_strategy::majority, 3));
  f.send(first, vote{"b1", "v1", "approve"});
  f.send(first, vote{"b1", "v2", "approve"});
  f.send(first, vote{"b1", "v3", "approve"}); // late (E024), but everyone voted
  f.run();
  REQUIRE(f.seen.ballot_events.back().kind == ballot_event_kind::result);
  f.advance(1000ms);
  auto spec = spec_of(ballot_strategy::majority, 3);
  spec.id = "b2";
  auto second = open(f, spec);
  CHECK(second == first); // the same actor, back from the pool
  auto seen = f.seen.ballot_events.size();
  auto problems = f.seen.problems.size();
  f.send(second, vote{"b1", "v1", "reject"}); // for the first ballot
  f.send(second, vote{"b0", "v1", "reject"}); // for none it ran
  f.run();
  REQUIRE(f.seen.problems.size() == problems + 2);
  CHECK(f.seen.problems[problems].code == error_code::voting_closed);
  CHECK(f.seen.problems[problems].negotiation_id == "b1");
  CHECK(f.seen.problems[problems + 1].code == error_code::invalid_vote);
  CHECK(f.seen.problems[problems + 1].negotiation_id == "b0");
  f.advance(4000ms); // the first ballot's window: nothing happens
  CHECK(f.seen.ballot_events.size() == seen);
  f.advance(1000ms); // the second one's
  REQUIRE(f.seen.ballot_events.size() == seen + 1);
  CHECK(f.seen.ballot_events.back().ballot_id == "b2");
  REQUIRE(f.seen.ballot_events.back().outcome);
  CHECK(f.seen.ballot_events.back().outcome->voted == 0);
  f.send(second, vote{"b1", "v2", "reject"}); // now idle: both are refused
  f.send(second, vote{"b2", "v2", "reject"});
  f.run();
  CHECK(f.seen.problems.size() == problems + 4);
  CHECK(f.seen.problems.back().code == error_code::voting_closed);
  CHECK(f.seen.problems.back().negotiation_id == "b2");
}

TEST_CASE("a vote for a ballot whose spec was refused is refused too", "[actor]") {
  actor_fixture f;
  auto b = open(f, spec_of(ballot_strategy::majority, 0)); // no voters: E027
  f.send(b, vote{"b1", "v1", "approve"});
  f.run();
  CHECK(f.seen.codes() ==
        std::vector<error_code>{error_code::invalid_ballot, error_code::invalid_vote});
  CHECK(f.seen.problems.back().agent_id == "v1");
}

TEST_CASE("a ballot still waiting for its window stops with its pool", "[actor]") {
  actor_fixture f;
  auto b = open(f, spec_of(ballot_strategy::majority, 3));
  f.send(b, vote{"b1", "v1", "approve"});
  f.send(b, vote{"b1", "v2", "approve"}); // resolved early, v3 may still vote
  f.run();
  REQUIRE(f.seen.ballot_events.back().kind == ballot_event_kind::result);
  auto* actor = caf::actor_cast<caf::abstract_actor*>(b);
  f.ballots->stop_all();
  f.run();
  CHECK(actor->getf(caf::abstract_actor::is_terminated_flag));
}

} // namespace actor_actors_ballot_actor_test
