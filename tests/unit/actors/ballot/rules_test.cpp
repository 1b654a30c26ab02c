#include "actors/ballot/rules.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_ballot_rules_test {

using namespace parley::actors::ballot;
using namespace parley::messages;

namespace {

/// A ballot with voters v1..vn, all of `role` unless `roles` says otherwise.
ballot_spec make_spec(ballot_strategy strategy, std::vector<std::string> roles,
                      std::vector<std::string> options = {"approve", "reject"}) {
  ballot_spec x;
  x.id = "b1";
  x.topic = "ship it?";
  x.options = std::move(options);
  x.strategy = strategy;
  for (std::size_t i = 0; i < roles.size(); ++i)
    x.voters.push_back({"v" + std::to_string(i + 1), roles[i]});
  return x;
}

std::vector<std::string> builders(std::size_t n) {
  return std::vector<std::string>(n, "builder");
}

/// Votes `options[i]` for v(i+1) in order; returns the effects of the last.
effects cast(rules& r, const std::vector<std::string>& options) {
  effects last;
  for (std::size_t i = 0; i < options.size(); ++i) {
    last = effects{};
    r.on_vote(vote{"b1", "v" + std::to_string(i + 1), options[i]}, last);
  }
  return last;
}

ballot_outcome closed(rules& r) {
  effects fx;
  r.on_window_closed(fx);
  REQUIRE(r.outcome());
  return *r.outcome();
}

} // namespace

TEST_CASE("weights and veto rights follow the roles", "[unit]") {
  CHECK(weight_of("architect") == 3);
  CHECK(weight_of("strategist") == 2);
  CHECK(weight_of("guardian") == 1);
  CHECK(weight_of("builder") == 1);
  CHECK(weight_of("") == 1);
  CHECK(can_veto("guardian"));
  CHECK(can_veto("strategist"));
  CHECK_FALSE(can_veto("architect"));
  CHECK_FALSE(can_veto("builder"));
}

TEST_CASE("majority: more than half of the eligible voters approves", "[unit]") {
  rules r{make_spec(ballot_strategy::majority, builders(5))};
  auto fx = cast(r, {"approve", "reject", "approve"});
  CHECK_FALSE(fx.resolved); // 2 of 5 is not more than half
  fx = effects{};
  r.on_vote(vote{"b1", "v4", "approve"}, fx);
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::approved);
  CHECK(fx.resolved->winner == "approve");
  CHECK(fx.resolved->early);
  CHECK(fx.resolved->voted == 4);
  CHECK(fx.resolved->eligible == 5);
  CHECK_FALSE(fx.finished); // v4 and v5 may still vote, and are refused
}

TEST_CASE("majority: exactly 50 % is a tie and rejects", "[unit]") {
  rules r{make_spec(ballot_strategy::majority, builders(4))};
  auto fx = cast(r, {"approve", "approve", "reject", "reject"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::rejected);
  CHECK(fx.resolved->winner.empty());
  CHECK(fx.finished);
}

TEST_CASE("majority: rejection is early once approval cannot pass half", "[unit]") {
  rules r{make_spec(ballot_strategy::majority, builders(4))};
  auto fx = cast(r, {"reject", "reject"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::rejected);
  CHECK(fx.resolved->early);
}

TEST_CASE("majority: abstentions count against", "[unit]") {
  rules r{make_spec(ballot_strategy::majority, builders(5))};
  auto fx = cast(r, {"approve", "approve"});
  CHECK_FALSE(fx.resolved);
  auto x = closed(r);
  CHECK(x.status == ballot_status::rejected);
  CHECK_FALSE(x.early);
  CHECK(x.voted == 2);
  CHECK(x.tallies ==
        std::map<std::string, std::int64_t>{{"approve", 2}, {"reject", 0}});
}

TEST_CASE("majority over several options needs more than half for one", "[unit]") {
  rules r{
      make_spec(ballot_strategy::majority, builders(5), {"alice", "bob", "reject"})};
  cast(r, {"alice", "bob", "alice", "bob"});
  CHECK_FALSE(r.resolved()); // v5 decides
  effects fx;
  r.on_vote(vote{"b1", "v5", "bob"}, fx);
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->winner == "bob");
}

TEST_CASE("unanimous: everyone agrees", "[unit]") {
  rules r{make_spec(ballot_strategy::unanimous, builders(3))};
  auto fx = cast(r, {"approve", "approve"});
  CHECK_FALSE(fx.resolved);
  fx = cast(r, {"approve", "approve", "approve"});
  // v1 and v2 are refused the second time; v3 completes it.
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::approved);
  CHECK(fx.resolved->early);
  CHECK(fx.finished);
}

TEST_CASE("unanimous: one dissent rejects at once", "[unit]") {
  rules r{make_spec(ballot_strategy::unanimous, builders(5))};
  auto fx = cast(r, {"approve", "approve", "reject"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::rejected);
  CHECK(fx.resolved->early);
}

TEST_CASE("unanimous: two different options reject at once", "[unit]") {
  rules r{make_spec(ballot_strategy::unanimous, builders(3), {"a", "b", "reject"})};
  auto fx = cast(r, {"a", "b"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::rejected);
}

TEST_CASE("unanimous: an abstention rejects", "[unit]") {
  rules r{make_spec(ballot_strategy::unanimous, builders(3))};
  cast(r, {"approve", "approve"});
  auto x = closed(r);
  CHECK(x.status == ballot_status::rejected);
  CHECK(x.reason == "1 eligible voter(s) did not vote");
}

TEST_CASE("weighted: the highest weighted option wins", "[unit]") {
  // architect 3 for approve against strategist 2 + builder 1 = 3 for reject
  // would tie; one more builder for approve breaks it.
  rules r{make_spec(ballot_strategy::weighted,
                    {"architect", "strategist", "builder", "builder"})};
  auto fx = cast(r, {"approve", "reject", "reject"});
  CHECK_FALSE(fx.resolved);
  fx = effects{};
  r.on_vote(vote{"b1", "v4", "approve"}, fx);
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::approved);
  CHECK(fx.resolved->tallies.at("approve") == 4);
  CHECK(fx.resolved->tallies.at("reject") == 3);
}

TEST_CASE("weighted: early once the rest cannot catch up", "[unit]") {
  // architect (3) + strategist (2) approve; two builders (2) remain.
  rules r{make_spec(ballot_strategy::weighted,
                    {"architect", "strategist", "builder", "builder"})};
  auto fx = cast(r, {"approve", "approve"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::approved);
  CHECK(fx.resolved->early);
}

TEST_CASE("weighted: a tie for the highest weight rejects", "[unit]") {
  rules r{make_spec(ballot_strategy::weighted, {"architect", "strategist", "builder"},
                    {"alice", "bob", "reject"})};
  auto fx = cast(r, {"alice", "bob", "bob"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::rejected);
  CHECK(fx.resolved->winner.empty());
  CHECK(fx.resolved->reason == "weighted tie between alice, bob at 3");
}

TEST_CASE("weighted: abstentions weigh nothing", "[unit]") {
  rules r{make_spec(ballot_strategy::weighted, {"architect", "builder", "builder"})};
  cast(r, {"reject", "approve"});
  auto x = closed(r); // the architect's 3 for reject beats 1 for approve
  CHECK(x.status == ballot_status::rejected);
  rules s{make_spec(ballot_strategy::weighted, {"builder", "architect", "architect"})};
  cast(s, {"approve"});
  auto y = closed(s); // the two architects abstain: 1 against 0
  CHECK(y.status == ballot_status::approved);
  CHECK(y.voted == 1);
  rules t{make_spec(ballot_strategy::weighted, builders(2))};
  CHECK(closed(t).reason == "nobody voted");
}

TEST_CASE("veto: a guardian's veto blocks", "[unit]") {
  rules r{make_spec(ballot_strategy::veto, {"builder", "builder", "guardian"})};
  auto fx = cast(r, {"approve", "approve", "veto"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::rejected);
  CHECK(fx.resolved->reason == "vetoed by v3 (guardian)");
  CHECK(fx.resolved->tallies.at("veto") == 1);
}

TEST_CASE("veto: a strategist's veto blocks at once", "[unit]") {
  rules r{make_spec(ballot_strategy::veto, {"strategist", "builder", "builder"})};
  auto fx = cast(r, {"veto"});
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->status == ballot_status::rejected);
  CHECK(fx.resolved->early);
}

TEST_CASE("veto: from an architect, builder or other role it is an ordinary no",
          "[unit]") {
  for (auto role : {"architect", "builder", "observer"}) {
    INFO(role);
    rules r{make_spec(ballot_strategy::veto, {role, "builder", "builder"})};
    auto fx = cast(r, {"veto", "approve", "approve"});
    REQUIRE(fx.resolved);
    CHECK(fx.resolved->status == ballot_status::approved);
    CHECK(fx.resolved->tallies.at("reject") == 1);
    CHECK(fx.resolved->tallies.at("veto") == 0);
  }
}

TEST_CASE("veto: approval waits while a guardian or strategist may still veto",
          "[unit]") {
  rules r{make_spec(ballot_strategy::veto, {"builder", "builder", "guardian"})};
  auto fx = cast(r, {"approve", "approve"});
  CHECK_FALSE(fx.resolved);
  auto x = closed(r); // the guardian abstains: no veto, and 2 of 3 approve
  CHECK(x.status == ballot_status::approved);
}

TEST_CASE("veto: without a veto it is a majority, abstentions against", "[unit]") {
  rules r{make_spec(ballot_strategy::veto, builders(4))};
  cast(r, {"approve", "approve"});
  CHECK(closed(r).status == ballot_status::rejected);
}

TEST_CASE("votes are immutable, and every refusal is coded and changes nothing", "[unit]") {
  rules r{make_spec(ballot_strategy::majority, builders(3))};
  effects fx;
  r.on_vote(vote{"b1", "mallory", "approve"}, fx);
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::not_eligible);
  CHECK_FALSE(fx.accepted);

  fx = {};
  r.on_vote(vote{"b1", "v1", "maybe"}, fx);
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::invalid_vote);

  fx = {};
  r.on_vote(vote{"b1", "v1", "veto"}, fx);
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::invalid_vote);

  fx = {};
  r.on_vote(vote{"b2", "v1", "approve"}, fx);
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::invalid_vote);

  fx = {};
  r.on_vote(vote{"b1", "v1", "reject"}, fx);
  CHECK(fx.accepted);
  fx = {};
  r.on_vote(vote{"b1", "v1", "approve"}, fx);
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::already_cast);

  fx = cast(r, {"reject", "approve", "approve"}); // v2, v3 approve
  REQUIRE(fx.resolved);
  CHECK(fx.resolved->tallies.at("reject") == 1);
  CHECK(fx.resolved->tallies.at("approve") == 2);
}

TEST_CASE("a vote after resolution is refused with E024", "[unit]") {
  rules r{make_spec(ballot_strategy::majority, builders(3))};
  cast(r, {"approve", "approve"});
  REQUIRE(r.resolved());
  effects fx;
  r.on_vote(vote{"b1", "v3", "reject"}, fx);
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::voting_closed);
  CHECK(r.outcome()->tallies.at("reject") == 0);
  fx = {};
  r.on_window_closed(fx);
  CHECK_FALSE(fx.resolved); // resolved once only
  CHECK(fx.finished);
}

TEST_CASE("a ballot is finished once every voter voted, refused late votes included",
          "[unit]") {
  rules r{make_spec(ballot_strategy::majority, builders(4))};
  cast(r, {"approve", "approve", "approve"}); // resolved early; v4 may still vote
  effects fx;
  r.on_vote(vote{"b1", "mallory", "approve"}, fx); // not a voter: changes nothing
  CHECK_FALSE(fx.finished);
  fx = {};
  r.on_vote(vote{"b1", "v4", "reject"}, fx);
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::voting_closed);
  CHECK(fx.finished);
  fx = {};
  r.on_vote(vote{"b1", "v4", "approve"}, fx); // again: still too late
  REQUIRE(fx.refused);
  CHECK(fx.refused->code == error_code::voting_closed);
}

TEST_CASE("ballot specs are validated", "[unit]") {
  auto ok = make_spec(ballot_strategy::majority, builders(2));
  CHECK(validate(ok).empty());
  auto x = ok;
  x.voters.clear();
  CHECK_FALSE(validate(x).empty());
  x = ok;
  x.options = {"approve"};
  CHECK_FALSE(validate(x).empty());
  x = ok;
  x.options = {"approve", "approve"};
  CHECK_FALSE(validate(x).empty());
  x = ok;
  x.options = {"yes", "no"};
  x.strategy = ballot_strategy::veto;
  CHECK_FALSE(validate(x).empty());
  x = ok;
  x.window_ms = 0;
  CHECK_FALSE(validate(x).empty());
  x = ok;
  x.voters.push_back(x.voters.front());
  CHECK_FALSE(validate(x).empty());
}

TEST_CASE("resolve_offline agrees with the incremental rules", "[unit]") {
  auto spec = make_spec(ballot_strategy::weighted, {"architect", "builder", "builder"});
  auto x = resolve_offline(spec, {{"v2", "reject"}, {"v3", "reject"}});
  CHECK(x.status == ballot_status::rejected); // 2 against 0, the architect abstains
  auto y = resolve_offline(spec, {{"v1", "approve"}, {"v2", "reject"}});
  CHECK(y.status == ballot_status::approved);
  CHECK(y.winner == "approve");
}

} // namespace unit_actors_ballot_rules_test
