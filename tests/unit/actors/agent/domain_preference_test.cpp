#include "actors/agent/domain_preference.hpp"

#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "actors/agent/strategy_brain.hpp"

namespace unit_actors_agent_domain_preference_test {

using parley::actors::agent::domain_preference;
using parley::actors::agent::domain_space;
using parley::actors::agent::offer_context;
using parley::actors::agent::strategy_brain;
using parley::messages::agent_profile;
using parley::messages::bargaining_side;
using parley::messages::proposal;
using parley::messages::reply_action;
using parley::messages::strategy_kind;
using parley::messages::utility_spec;

namespace {

/// Eleven prices (the worked example of docs/outcomes.md, price k as the
/// amount 100 * (k + 1): amounts are positive) and a delivery term.
utility_spec price_and_days(double days_weight) {
  utility_spec u;
  u.domain.amount = {100, 1100, 100};
  u.domain.terms = {{"days", {"2", "7"}}};
  u.weights = {{"amount", 1.0 - days_weight}, {"days", days_weight}};
  u.values = {{"days", {1.0, 0.0}}};
  u.reservation = 0.3;
  return u;
}

/// An offer at price `k`.
proposal offer(std::int64_t k, const std::string& terms = "{}") {
  proposal p;
  p.amount = 100 * (k + 1);
  p.terms.text = terms;
  return p;
}

/// The price of `p`.
std::int64_t price(const proposal& p) {
  return p.amount / 100 - 1;
}

} // namespace

TEST_CASE("a domain's utility of a proposal reads its amount and terms") {
  domain_space buyer{price_and_days(0.5), bargaining_side::buyer};
  // Buyer: amount falls from 1 at 0 to 0 at 10; days 2 is worth 1.
  CHECK(buyer.utility(offer(4, R"({"days":2})")) == Approx(0.5 * 0.6 + 0.5));
  CHECK(buyer.utility(offer(4, R"({"days":7})")) == Approx(0.3));
  // A missing or unknown term is worth 0 for its issue; amounts snap and clamp.
  CHECK(buyer.utility(offer(4)) == Approx(0.3));
  CHECK(buyer.utility(offer(4, R"({"days":3})")) == Approx(0.3));
  CHECK(buyer.utility(offer(-5, R"({"days":2})")) == Approx(1.0));
  CHECK(buyer.utility(offer(99, R"({"days":2})")) == Approx(0.5));
  domain_space seller{price_and_days(0.5), bargaining_side::seller};
  CHECK(seller.utility(offer(4, R"({"days":2})")) == Approx(0.5 * 0.4 + 0.5));
}

TEST_CASE("a domain ranks its outcomes and writes them as proposals") {
  domain_space buyer{price_and_days(0.5), bargaining_side::buyer};
  const auto& ranked = buyer.ranked();
  REQUIRE(ranked.size() == 22);
  CHECK(ranked.front().first == Approx(1.0));
  for (std::size_t i = 1; i < ranked.size(); ++i)
    CHECK(ranked[i - 1].first >= ranked[i].first);
  auto best = buyer.proposal_of(ranked.front().second, offer(5));
  CHECK(price(best) == 0);
  CHECK(best.terms.text == R"({"days":2})");
  CHECK(buyer.utility(best) == Approx(1.0));
}

TEST_CASE("offers at a target keep to the other side's terms when nearly as good") {
  auto space =
      std::make_shared<domain_space>(price_and_days(0.1), bargaining_side::buyer);
  domain_preference pref{space, 0.3};
  // Utility 0.9 * (10 - p) / 10 + 0.1 * days. Target 0.6: p = 4 with days 7
  // (0.54) is short, p = 4 with days 2 (0.64) and p = 3 with days 7 (0.63) qualify.
  auto theirs_days7 = offer(8, R"({"days":7})");
  auto mine = pref.offer_at(0.6, theirs_days7);
  CHECK(pref.utility(mine) >= 0.6);
  CHECK(mine.terms.text == R"({"days":7})");
  CHECK(price(mine) == 3);
  auto theirs_days2 = offer(8, R"({"days":2})");
  mine = pref.offer_at(0.6, theirs_days2);
  CHECK(mine.terms.text == R"({"days":2})");
  CHECK(price(mine) == 4);
  // Nothing worth the target: its best.
  CHECK(pref.utility(pref.offer_at(1.5, theirs_days2)) == Approx(1.0));
}

TEST_CASE("a strategy brain with a utility never goes below its reservation value") {
  agent_profile seller;
  seller.role = "seller";
  seller.utility = price_and_days(0.0);
  seller.utility->reservation = 0.45;
  for (auto kind :
       {strategy_kind::boulware, strategy_kind::linear, strategy_kind::conceder,
        strategy_kind::hardliner, strategy_kind::random, strategy_kind::tit_for_tat,
        strategy_kind::micro}) {
    CAPTURE(parley::messages::to_string(kind));
    strategy_brain brain{kind, bargaining_side::from_role, seller, 7};
    for (std::int32_t round = 1; round <= 5; ++round) {
      offer_context ctx;
      ctx.incoming = offer(3);
      ctx.round = round;
      ctx.max_rounds = 5;
      ctx.my_distinct_offers = round / 2;
      ctx.their_distinct_offers = (round + 1) / 2;
      auto d = brain.decide(ctx);
      REQUIRE(d);
      CHECK(d->action != reply_action::accept);
      if (d->action == reply_action::counter)
        CHECK(price(d->proposal) >= 5); // 0.45 of 0..10, on the grid
    }
    offer_context last;
    last.incoming = offer(9);
    last.round = 5;
    last.max_rounds = 5;
    last.my_distinct_offers = 2;
    last.their_distinct_offers = 3;
    auto d = brain.decide(last);
    REQUIRE(d);
    // At the last round the time-based ones aim at their reservation value.
    if (kind == strategy_kind::boulware || kind == strategy_kind::linear ||
        kind == strategy_kind::conceder)
      CHECK(d->action == reply_action::accept);
  }
}

TEST_CASE("tit-for-tat gives back what the other side conceded") {
  agent_profile seller;
  seller.role = "seller";
  seller.utility = price_and_days(0.0);
  seller.utility->reservation = 0.0;
  strategy_brain brain{strategy_kind::tit_for_tat, bargaining_side::from_role, seller,
                       0};
  offer_context ctx;
  ctx.round = 2;
  ctx.max_rounds = 10;
  ctx.incoming = offer(2);
  auto first = brain.decide(ctx);
  REQUIRE(first);
  CHECK(first->action == reply_action::counter);
  CHECK(price(first->proposal) == 10); // no concession yet: its best
  // The buyer moved from 2 to 5: 0.3 of the seller's utility; it moves 0.3 too.
  ctx.round = 4;
  ctx.their_first = offer(2);
  ctx.incoming = offer(5);
  auto second = brain.decide(ctx);
  REQUIRE(second);
  CHECK(second->action == reply_action::counter);
  CHECK(price(second->proposal) == 7);
  // Past where the buyer now stands, it accepts.
  ctx.incoming = offer(7);
  ctx.round = 6;
  auto third = brain.decide(ctx);
  REQUIRE(third);
  CHECK(third->action == reply_action::accept);
}

TEST_CASE("MiCRO concedes one offer for each new offer of the other side") {
  agent_profile buyer;
  buyer.role = "buyer";
  buyer.utility = price_and_days(0.0);
  // Price alone: with the days term each price would be two outcomes of
  // equal utility, and MiCRO offers every one of them in turn.
  buyer.utility->domain.terms.clear();
  buyer.utility->weights = {{"amount", 1.0}};
  buyer.utility->values.clear();
  buyer.utility->reservation = 0.0;
  strategy_brain brain{strategy_kind::micro, bargaining_side::from_role, buyer, 0};
  offer_context ctx;
  ctx.max_rounds = 20;
  ctx.incoming = offer(10);
  ctx.round = 1;
  auto counter_amount = [&](std::int32_t mine, std::int32_t theirs) {
    ctx.my_distinct_offers = mine;
    ctx.their_distinct_offers = theirs;
    auto d = brain.decide(ctx);
    REQUIRE(d);
    REQUIRE(d->action == reply_action::counter);
    return price(d->proposal);
  };
  CHECK(counter_amount(0, 1) == 0); // first: its best
  CHECK(counter_amount(1, 1) == 1); // they made as many: a new, lower one
  CHECK(counter_amount(2, 1) == 1); // they stood still: its lowest again
  CHECK(counter_amount(2, 2) == 2);
  // It accepts an offer at least as good as its next one.
  ctx.incoming = offer(3);
  ctx.my_distinct_offers = 3;
  ctx.their_distinct_offers = 3;
  auto d = brain.decide(ctx);
  REQUIRE(d);
  CHECK(d->action == reply_action::accept);
}

} // namespace unit_actors_agent_domain_preference_test
