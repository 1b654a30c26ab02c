#include "actors/agent/strategy_brain.hpp"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_agent_strategy_brain_test {

using parley::actors::agent::amount_of;
using parley::actors::agent::amount_range;
using parley::actors::agent::offer_context;
using parley::actors::agent::range_for;
using parley::actors::agent::strategy_brain;
using parley::actors::agent::target_utility;
using parley::actors::agent::utility_of;
using parley::messages::agent_profile;
using parley::messages::bargaining_side;
using parley::messages::decision;
using parley::messages::escrow_required;
using parley::messages::proposal;
using parley::messages::reply_action;
using parley::messages::strategy_kind;

namespace {

const strategy_kind kinds[] = {strategy_kind::boulware, strategy_kind::linear,
                               strategy_kind::conceder, strategy_kind::hardliner,
                               strategy_kind::random};

/// Default preferences: a £1,000.00 limit, escrow above £500.00.
agent_profile profile_as(std::string role) {
  agent_profile x;
  x.display_name = "Agent";
  x.role = std::move(role);
  return x;
}

offer_context offer_at(std::int64_t amount, std::int32_t round,
                       std::int32_t max_rounds = 5) {
  offer_context ctx;
  ctx.negotiation_id = "n-1";
  ctx.incoming.amount = amount;
  ctx.incoming.currency = "GBP";
  ctx.incoming.description = "Website redesign";
  ctx.incoming.escrow = amount > 50000;
  ctx.round = round;
  ctx.max_rounds = max_rounds;
  return ctx;
}

decision decide(strategy_kind kind, const std::string& role, const offer_context& ctx,
                std::uint64_t seed = 0) {
  strategy_brain brain{kind, bargaining_side::from_role, profile_as(role), seed};
  auto result = brain.decide(ctx);
  REQUIRE(result);
  return *result;
}

} // namespace

TEST_CASE("targets concede late, evenly, early or never", "[unit]") {
  CHECK(target_utility(strategy_kind::boulware, 0.5) == Approx(0.96875));
  CHECK(target_utility(strategy_kind::linear, 0.5) == Approx(0.5));
  CHECK(target_utility(strategy_kind::conceder, 0.5) == Approx(0.129449436));
  CHECK(target_utility(strategy_kind::hardliner, 0.5) == 1.0);
  for (auto kind :
       {strategy_kind::boulware, strategy_kind::linear, strategy_kind::conceder}) {
    CHECK(target_utility(kind, 0.0) == 1.0);
    CHECK(target_utility(kind, 1.0) == 0.0);
  }
}

TEST_CASE("the range runs from the best amount to the reservation price", "[unit]") {
  parley::messages::agent_preferences p;
  auto seller = range_for(p, bargaining_side::seller);
  CHECK(seller.best == 100000);
  CHECK(seller.reservation == 10000);
  auto buyer = range_for(p, bargaining_side::buyer);
  CHECK(buyer.best == 10000);
  CHECK(buyer.reservation == 100000);
  p.reservation_amount = 5000; // a buyer's ceiling below its usual best
  buyer = range_for(p, bargaining_side::buyer);
  CHECK(buyer.best == 5000);
  CHECK(buyer.reservation == 5000);
  CHECK(utility_of(buyer, 5000) == 1.0);
  CHECK(utility_of(seller, 55000) == Approx(0.5));
  CHECK(utility_of(seller, 1) == 0.0);
  CHECK(utility_of(seller, 200000) == 1.0);
  CHECK(amount_of(seller, 0.8) == 82000);
  CHECK(amount_of(amount_range{10000, 100000}, 0.8) == 28000);
  CHECK(amount_of(amount_range{3, 0}, 0.5) == 2); // toward the best
  CHECK(amount_of(amount_range{0, 3}, 0.5) == 1);
}

TEST_CASE("a linear seller counters at its target and accepts what meets it",
          "[unit]") {
  auto first = decide(strategy_kind::linear, "seller", offer_at(100, 1));
  CHECK(first.action == reply_action::counter);
  CHECK(first.proposal.amount == 82000);
  CHECK(first.proposal.escrow == escrow_required({}, 82000));
  CHECK(first.proposal.description == "Website redesign");
  CHECK(first.reason == "Countering at £820.00: linear strategy, target utility 0.80 "
                        "in round 1 of 5");
  // Round 3 of 5: the target is 0.4, £460.00.
  CHECK(decide(strategy_kind::linear, "seller", offer_at(46000, 3)).action ==
        reply_action::accept);
  auto below = decide(strategy_kind::linear, "seller", offer_at(45999, 3));
  CHECK(below.action == reply_action::counter);
  CHECK(below.proposal.amount == 46000);
  // The £1.00 exploit ends in a rejection at the last round.
  auto last = decide(strategy_kind::linear, "seller", offer_at(100, 5));
  CHECK(last.action == reply_action::reject);
  CHECK(last.reason == "£1.00 is below my floor of £100.00");
}

TEST_CASE("Boulware holds out longer than linear, conceder gives in first", "[unit]") {
  auto amount = [](strategy_kind kind) {
    return decide(kind, "seller", offer_at(100, 2)).proposal.amount;
  };
  CHECK(amount(strategy_kind::boulware) > amount(strategy_kind::linear));
  CHECK(amount(strategy_kind::linear) > amount(strategy_kind::conceder));
  CHECK(amount(strategy_kind::hardliner) == 100000);
}

TEST_CASE("a hardliner never moves from its best", "[unit]") {
  for (std::int32_t round = 1; round < 5; ++round)
    CHECK(decide(strategy_kind::hardliner, "buyer", offer_at(90000, round))
              .proposal.amount == 10000);
  CHECK(decide(strategy_kind::hardliner, "buyer", offer_at(10001, 5)).action ==
        reply_action::reject);
  CHECK(decide(strategy_kind::hardliner, "buyer", offer_at(10000, 5)).action ==
        reply_action::accept);
}

TEST_CASE("the random strategy repeats itself for a seed", "[unit]") {
  auto run = [](std::uint64_t seed) {
    strategy_brain brain{strategy_kind::random, bargaining_side::seller,
                         profile_as("seller"), seed};
    std::vector<std::int64_t> amounts;
    for (std::int32_t round = 1; round <= 4; ++round)
      for (auto i = 0; i < 5; ++i)
        amounts.push_back(brain.decide(offer_at(5000, round))->proposal.amount);
    return amounts;
  };
  CHECK(run(7) == run(7));
  CHECK(run(7) != run(8));
}

TEST_CASE("no strategy accepts or proposes past its reservation price", "[unit]") {
  std::mt19937_64 gen{20261129};
  auto draw = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>{low, high}(gen);
  };
  auto accepted = 0;
  for (auto kind : kinds) {
    for (auto side : {bargaining_side::buyer, bargaining_side::seller}) {
      for (auto sample = 0; sample < 200; ++sample) {
        auto profile = profile_as("");
        auto& p = profile.preferences;
        p.max_auto_approve_amount = draw(10, 1000000);
        if (sample % 2 == 0)
          p.reservation_amount = draw(1, p.max_auto_approve_amount);
        strategy_brain brain{kind, side, profile, static_cast<std::uint64_t>(sample)};
        auto max_rounds = static_cast<std::int32_t>(draw(1, 8));
        auto ctx = offer_at(draw(1, 2000000), static_cast<std::int32_t>(draw(1, 8)),
                            max_rounds);
        ctx.incoming.escrow = escrow_required(p, ctx.incoming.amount);
        auto d = *brain.decide(ctx);
        INFO("kind " << static_cast<int>(kind) << ", sample " << sample);
        if (d.action == reply_action::accept) {
          ++accepted;
          CHECK_FALSE(parley::messages::past_reservation(p, side, ctx.incoming.amount));
          CHECK(ctx.incoming.amount <= p.max_auto_approve_amount);
        }
        if (d.action == reply_action::counter) {
          CHECK(ctx.round < ctx.max_rounds);
          CHECK_FALSE(parley::messages::past_reservation(p, side, d.proposal.amount));
          CHECK(d.proposal.amount <= p.max_auto_approve_amount);
          CHECK(d.proposal.escrow == escrow_required(p, d.proposal.amount));
        }
      }
    }
  }
  CHECK(accepted > 0);
}

} // namespace unit_actors_agent_strategy_brain_test
