#include "actors/auction/rules.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_auction_rules_test {

using namespace parley::actors::auction;
using namespace parley::messages;

namespace {

auction_spec make_spec() {
  auction_spec x;
  x.id = "a1";
  x.task = "frontend";
  x.invited = {{"ann", "architect"},
               {"sam", "strategist"},
               {"bob", "builder"},
               {"gus", "guardian"},
               {"oli", "observer"}};
  return x;
}

bid make_bid(std::string who, double capability, double load, std::int64_t ms) {
  return bid{"a1", std::move(who), capability, load, ms};
}

} // namespace

TEST_CASE("the composite score, with worked numbers", "[unit]") {
  // Shortest duration 1000 ms. ann: 0.4*0.9 + 0.3*(1-0.2) + 0.3*(1000/2000)
  //   = 0.36 + 0.24 + 0.15 = 0.75.
  auto s = score(make_bid("ann", 0.9, 0.2, 2000), "architect", 1000);
  CHECK(s.capability == 0.9);
  CHECK(s.availability == 0.8);
  CHECK(s.speed == 0.5);
  CHECK(s.score == 0.75);
  // bob: 0.4*0.5 + 0.3*(1-0.6) + 0.3*(1000/1000) = 0.2 + 0.12 + 0.3 = 0.62.
  CHECK(score(make_bid("bob", 0.5, 0.6, 1000), "builder", 1000).score == 0.62);
  // A perfect bid scores 1; an idle incapable slow one scores 0.3 * speed.
  CHECK(score(make_bid("x", 1, 0, 500), "", 500).score == 1.0);
  CHECK(score(make_bid("x", 0, 1, 3000), "", 1000).score == 0.1);
}

TEST_CASE("the highest score wins", "[unit]") {
  auto x = rank({make_bid("ann", 0.9, 0.2, 2000), make_bid("bob", 0.5, 0.6, 1000)},
                {"architect", "builder"});
  CHECK(x.status == auction_status::awarded);
  CHECK(x.winner == "ann");
  REQUIRE(x.ranking.size() == 2);
  CHECK(x.ranking[0].score == 0.75);
  CHECK(x.ranking[1].score == 0.62);
  CHECK(x.reason == "ann scored 0.75");
}

TEST_CASE("equal scores: role priority architect > strategist > builder > guardian > "
          "others",
          "[unit]") {
  std::vector<std::string> roles = {"observer", "guardian", "builder", "strategist",
                                    "architect"};
  std::vector<bid> bids;
  for (const auto& r : roles)
    bids.push_back(make_bid(r, 0.5, 0.5, 1000));
  auto x = rank(bids, roles);
  REQUIRE(x.ranking.size() == 5);
  CHECK(x.ranking[0].role == "architect");
  CHECK(x.ranking[1].role == "strategist");
  CHECK(x.ranking[2].role == "builder");
  CHECK(x.ranking[3].role == "guardian");
  CHECK(x.ranking[4].role == "observer");
  CHECK(x.reason == "architect scored 0.65, tie broken by role priority");
  // Each level on its own.
  for (std::size_t i = 0; i + 1 < roles.size(); ++i) {
    auto pair =
        rank({make_bid("lower", 0.5, 0.5, 1000), make_bid("higher", 0.5, 0.5, 1000)},
             {roles[i], roles[i + 1]});
    CHECK(pair.winner == "higher");
  }
  CHECK(role_priority("designer") == role_priority("observer"));
}

TEST_CASE("equal scores computed from different terms tie too", "[unit]") {
  // 0.4*1 + 0.3*0 + 0.3*1 = 0.7 and 0.4*0.25 + 0.3*1 + 0.3*1 = 0.7.
  auto x = rank({make_bid("bob", 1, 1, 1000), make_bid("ann", 0.25, 0, 1000)},
                {"builder", "architect"});
  CHECK(x.ranking[0].score == x.ranking[1].score);
  CHECK(x.winner == "ann");
}

TEST_CASE("equal scores and roles: the earliest bid wins", "[unit]") {
  auto x = rank({make_bid("first", 0.5, 0.5, 1000), make_bid("second", 0.5, 0.5, 1000)},
                {"builder", "builder"});
  CHECK(x.winner == "first");
  CHECK(x.reason == "first scored 0.65, tie broken by the earliest bid");
}

TEST_CASE("an auction with no bids ends no_bids", "[unit]") {
  rules r{make_spec()};
  effects fx;
  r.on_window_closed(fx);
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == auction_status::no_bids);
  CHECK(fx.resolved->winner.empty());
}

TEST_CASE("the auction resolves when every invited agent has bid", "[unit]") {
  auto spec = make_spec();
  spec.invited.resize(2);
  rules r{spec};
  effects fx;
  r.on_bid(make_bid("sam", 0.9, 0.2, 2000), fx);
  CHECK(fx.accepted);
  CHECK_FALSE(fx.resolved);
  fx = {};
  r.on_bid(make_bid("ann", 0.9, 0.2, 2000), fx);
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->winner == "ann"); // same score, architect first
}

TEST_CASE("invalid bids are refused with coded errors and change nothing", "[unit]") {
  rules r{make_spec()};
  auto refused = [&](const bid& b) {
    effects fx;
    r.on_bid(b, fx);
    CHECK_FALSE(fx.accepted);
    return fx.refused ? fx.refused->code : error_code::none;
  };
  CHECK(refused(make_bid("ann", 1.5, 0, 100)) == error_code::invalid_bid);
  CHECK(refused(make_bid("ann", -0.1, 0, 100)) == error_code::invalid_bid);
  CHECK(refused(make_bid("ann", 0.5, 1.01, 100)) == error_code::invalid_bid);
  CHECK(refused(make_bid("ann", 0.5, -1, 100)) == error_code::invalid_bid);
  CHECK(refused(make_bid("ann", 0.5, 0.5, 0)) == error_code::invalid_bid);
  CHECK(refused(make_bid("ann", 0.5, 0.5, -5)) == error_code::invalid_bid);
  CHECK(refused(bid{"other", "ann", 0.5, 0.5, 100}) == error_code::invalid_bid);
  CHECK(refused(make_bid("mallory", 0.5, 0.5, 100)) == error_code::not_eligible);
  effects fx;
  r.on_bid(make_bid("ann", 0.5, 0.5, 100), fx);
  CHECK(fx.accepted);
  CHECK(refused(make_bid("ann", 1, 0, 50)) == error_code::already_cast);
  fx = {};
  r.on_window_closed(fx);
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->ranking.size() == 1);
  CHECK(fx.resolved->ranking[0].score == 0.65); // the first bid stands
  CHECK(refused(make_bid("bob", 0.5, 0.5, 100)) == error_code::voting_closed);
}

TEST_CASE("auction specs are validated", "[unit]") {
  CHECK(validate(make_spec()).empty());
  auto x = make_spec();
  x.invited.clear();
  CHECK_FALSE(validate(x).empty());
  x = make_spec();
  x.invited.push_back(x.invited.front());
  CHECK_FALSE(validate(x).empty());
  x = make_spec();
  x.window_ms = 0;
  CHECK_FALSE(validate(x).empty());
}

} // namespace unit_actors_auction_rules_test
