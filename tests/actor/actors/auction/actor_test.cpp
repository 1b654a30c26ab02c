#include "actors/auction/actor.hpp"

#include <catch2/catch.hpp>

#include "actors/agent/actor.hpp"
#include "support/actor_fixture.hpp"

namespace actor_actors_auction_actor_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::test::actor_fixture;

namespace {

auction_spec spec_of(std::vector<participant> invited, std::int64_t window_ms = 3000) {
  auction_spec x;
  x.id = "a1";
  x.task = "frontend";
  x.invited = std::move(invited);
  x.window_ms = window_ms;
  return x;
}

} // namespace

TEST_CASE("an auction resolves when its window closes", "[actor]") {
  actor_fixture f;
  auto a = parley::actors::auction::open(
      *f.auctions,
      spec_of({{"ann", "architect"}, {"bob", "builder"}, {"gus", "guardian"}}),
      {f.events, {}, {}}, f.timers);
  f.run();
  f.send(a, bid{"a1", "bob", 0.5, 0.6, 1000});
  f.send(a, bid{"a1", "ann", 0.9, 0.2, 2000});
  f.send(a, bid{"a1", "ann", 1.0, 0.0, 10}); // twice
  f.send(a, bid{"a1", "gus", 1.2, 0.0, 10}); // out of range
  f.send(a, bid{"a1", "zed", 0.5, 0.5, 10}); // not invited
  f.run();
  CHECK(f.seen.codes() == std::vector<error_code>{error_code::already_cast,
                                                  error_code::invalid_bid,
                                                  error_code::not_eligible});
  REQUIRE(f.seen.auction_events.size() == 2);
  f.advance(2999ms);
  CHECK(f.seen.auction_events.size() == 2);
  f.advance(1ms);
  REQUIRE(f.seen.auction_events.size() == 3);
  const auto& result = f.seen.auction_events.back();
  CHECK(result.kind == auction_event_kind::result);
  REQUIRE(result.outcome);
  CHECK(result.outcome->winner == "ann"); // 0.75 against 0.62
  CHECK(result.outcome->ranking.at(0).score == 0.75);
  CHECK(result.outcome->ranking.at(1).score == 0.62);
}

TEST_CASE("a bid for an auction that resolved is refused with E024, however late",
          "[actor]") {
  actor_fixture f;
  auto a = parley::actors::auction::open(
      *f.auctions, spec_of({{"ann", "architect"}, {"bob", "builder"}}),
      {f.events, {}, {}}, f.timers);
  f.run();
  f.send(a, bid{"a1", "ann", 0.9, 0.2, 2000});
  f.send(a, bid{"a1", "bob", 0.5, 0.6, 1000}); // everyone bid: resolved
  f.send(a, bid{"a1", "bob", 0.6, 0.6, 1000}); // the auction's actor has gone back
  f.run();
  REQUIRE(f.seen.auction_events.back().kind == auction_event_kind::result);
  CHECK(f.seen.codes() == std::vector<error_code>{error_code::voting_closed});
  f.advance(24h);
  f.send(a, bid{"a1", "ann", 1.0, 0.0, 10});
  f.run();
  CHECK(f.seen.codes() ==
        std::vector<error_code>{error_code::voting_closed, error_code::voting_closed});
  CHECK(f.seen.problems.back().negotiation_id == "a1");
  CHECK(f.seen.problems.back().agent_id == "ann");
  CHECK(f.seen.auction_events.size() == 3); // two bids, the result
}

TEST_CASE("an auction with no bids ends no_bids", "[actor]") {
  actor_fixture f;
  parley::actors::auction::open(*f.auctions, spec_of({{"ann", "architect"}}, 5000),
                                {f.events, {}, {}}, f.timers);
  f.run();
  f.advance(5000ms);
  REQUIRE(f.seen.auction_events.size() == 1);
  CHECK(f.seen.auction_events.front().outcome->status == auction_status::no_bids);
}

TEST_CASE("rule agents bid from their profile when invited", "[actor]") {
  actor_fixture f;
  std::map<std::string, parley::actors::agent_actor> agents;
  std::vector<participant> invited;
  for (auto [id, role, cap, load] :
       std::vector<std::tuple<std::string, std::string, double, double>>{
           {"ann", "architect", 0.8, 0.5},
           {"bob", "builder", 0.9, 0.0},
           {"cat", "guardian", 0.0, 0.0}}) {
    agent_spec a;
    a.id = id;
    a.profile.role = role;
    a.profile.capabilities = {{"frontend", cap}};
    a.profile.load = load;
    agents.emplace(id, parley::actors::agent::spawn_agent(f.sys, a, 5, {f.events}));
    f.keep(agents.at(id));
    invited.push_back({id, role});
  }
  parley::actors::auction::open(*f.auctions, spec_of(invited), {f.events, {}, agents},
                                f.timers);
  f.run();
  // cat has no capability and does not bid; the window decides.
  CHECK(f.seen.auction_events.size() == 2);
  f.advance(3000ms);
  REQUIRE(f.seen.auction_events.size() == 3);
  const auto& outcome = *f.seen.auction_events.back().outcome;
  CHECK(outcome.winner == "bob");
  REQUIRE(outcome.ranking.size() == 2);
}

} // namespace actor_actors_auction_actor_test
