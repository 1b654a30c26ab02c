// The deal scores of live negotiations (docs/outcomes.md, "Scores of live
// negotiations"): the worked example of docs/outcomes.md as a negotiation's
// end, a multi-issue end that is dominated, and when no scorer is made.

#include <cmath>

#include <catch2/catch.hpp>

#include "actors/negotiation/scoring.hpp"

namespace unit_negotiation_scoring_test {

namespace msg = parley::messages;
using parley::actors::negotiation::deal_scorer;
using parley::actors::negotiation::scorer_for;

namespace {

/// The worked example's domain: the amount 1..11 stands for the price
/// p = amount - 1 in 0..10, so the default values give the buyer (10 - p)/10
/// and the seller p/10.
msg::outcome_domain price_domain() {
  msg::outcome_domain d;
  d.amount = {1, 11, 1};
  return d;
}

msg::party_valuation party(msg::bargaining_side side, double reservation,
                           msg::outcome_domain d = price_domain()) {
  msg::party_valuation x;
  x.utility.domain = std::move(d);
  x.utility.reservation = reservation;
  x.side = side;
  return x;
}

msg::proposal at(std::int64_t amount, const std::string& terms = {}) {
  msg::proposal p;
  p.amount = amount;
  p.currency = "GBP";
  p.terms.text = terms;
  return p;
}

/// A record between buyer "b" (initiator) and seller "s" whose offers are
/// `amounts` in turn, ending in `status` at the last of them.
msg::negotiation_record ended(msg::negotiation_status status,
                              const std::vector<std::int64_t>& amounts) {
  msg::negotiation_record r;
  r.initiator = "b";
  r.responder = "s";
  std::int32_t n = 0;
  for (auto a : amounts) {
    ++n;
    r.rounds.push_back(
        {n, n % 2 == 1 ? "b" : "s", at(a),
         n == 1 ? msg::round_action::propose : msg::round_action::counter, "", n, ""});
  }
  r.current_proposal = r.rounds.back().proposal;
  r.status = status;
  if (status == msg::negotiation_status::accepted) {
    r.rounds.push_back({n + 1, n % 2 == 1 ? "s" : "b", r.current_proposal,
                        msg::round_action::accept, "", n + 1, ""});
    r.final_proposal = r.current_proposal;
  }
  return r;
}

} // namespace

TEST_CASE("an agreement at p = 6 scores as the worked example", "[unit][outcomes]") {
  deal_scorer scorer{party(msg::bargaining_side::buyer, 0.3),
                     party(msg::bargaining_side::seller, 0.1)};
  // Offers p = 2, 9, 6; the seller accepts p = 6 (amount 7).
  auto s = scorer.score(ended(msg::negotiation_status::accepted, {3, 10, 7}));
  CHECK(s.utilities.initiator == Approx(0.4));
  CHECK(s.utilities.responder == Approx(0.6));
  CHECK(s.advantages.initiator == Approx(0.142857).epsilon(1e-5));
  CHECK(s.advantages.responder == Approx(0.555556).epsilon(1e-5));
  CHECK(s.reservation == msg::utility_pair{0.3, 0.1});
  CHECK(s.welfare == Approx(1.0));
  CHECK(s.nash_product == Approx(0.1 * 0.5));
  REQUIRE(s.nash_point);
  CHECK(s.nash_point->initiator == Approx(0.6));
  CHECK(s.nash_point->responder == Approx(0.4));
  REQUIRE(s.nash_distance);
  CHECK(*s.nash_distance == Approx(0.2828427).epsilon(1e-6));
  REQUIRE(s.pareto_distance);
  CHECK(*s.pareto_distance == Approx(0.0).margin(1e-12)); // p = 6 is on the frontier
  // The accepting round is no offer.
  REQUIRE(s.offers.size() == 3);
  CHECK(s.offers[0].from_agent == "b");
  CHECK(s.offers[0].initiator == Approx(0.8));
  CHECK(s.offers[0].responder == Approx(0.2));
  CHECK(s.offers[1].round == 2);
  CHECK(s.offers[1].initiator == Approx(0.1));
  CHECK(s.offers[2].responder == Approx(0.6));
}

TEST_CASE("an end without agreement scores the reservation values",
          "[unit][outcomes]") {
  deal_scorer scorer{party(msg::bargaining_side::buyer, 0.3),
                     party(msg::bargaining_side::seller, 0.1)};
  for (auto status :
       {msg::negotiation_status::rejected, msg::negotiation_status::expired}) {
    auto s = scorer.score(ended(status, {3, 10}));
    CHECK(s.utilities == msg::utility_pair{0.3, 0.1});
    CHECK(s.advantages.initiator == 0.0);
    CHECK(s.advantages.responder == 0.0);
    CHECK(s.nash_product == 0.0);
    REQUIRE(s.nash_distance);
    CHECK(*s.nash_distance == Approx(0.3 * std::sqrt(2.0))); // (0.3, 0.1) to (0.6, 0.4)
    CHECK(s.offers.size() == 2);
  }
}

TEST_CASE("a dominated multi-issue agreement is away from the frontier",
          "[unit][outcomes]") {
  // Amount 1..3 and a delivery term: the buyer cares only for fast delivery,
  // the seller only for the amount, so every slow agreement is dominated by
  // the fast one at the same amount.
  auto d = price_domain();
  d.amount = {1, 3, 1};
  d.terms = {{"delivery", {"\"fast\"", "\"slow\""}}};
  auto buyer = party(msg::bargaining_side::buyer, 0.0, d);
  buyer.utility.weights = {{"delivery", 1.0}};
  buyer.utility.values = {{"delivery", {1.0, 0.0}}};
  auto seller = party(msg::bargaining_side::seller, 0.0, d);
  deal_scorer scorer{buyer, seller};
  auto record = ended(msg::negotiation_status::accepted, {2});
  record.final_proposal = at(3, R"({"delivery":"slow"})");
  auto slow = scorer.score(record);
  CHECK(slow.utilities == msg::utility_pair{0.0, 1.0});
  REQUIRE(slow.pareto_distance);
  CHECK(*slow.pareto_distance == Approx(1.0)); // (1, 1): fast at amount 3
  record.final_proposal = at(3, R"({"delivery":"fast"})");
  auto fast = scorer.score(record);
  CHECK(fast.utilities == msg::utility_pair{1.0, 1.0});
  CHECK(*fast.pareto_distance == Approx(0.0).margin(1e-12));
  CHECK(*fast.nash_distance == Approx(0.0).margin(1e-12));
}

TEST_CASE("negotiations are scored only between valuations of one domain",
          "[unit][outcomes]") {
  using shared = msg::shared<msg::party_valuation>;
  shared buyer{party(msg::bargaining_side::buyer, 0.3)};
  shared seller{party(msg::bargaining_side::seller, 0.1)};
  auto other_domain = price_domain();
  other_domain.amount.max = 21;
  shared stranger{party(msg::bargaining_side::seller, 0.1, other_domain)};
  CHECK_FALSE(scorer_for(buyer, shared{}));
  CHECK_FALSE(scorer_for(shared{}, seller));
  CHECK_FALSE(scorer_for(buyer, stranger));
  auto made = scorer_for(buyer, seller);
  REQUIRE(made);
  // The same pair again, or an equal copy of it, shares the analysis.
  CHECK(scorer_for(buyer, seller) == made);
  CHECK(scorer_for(shared{*buyer}, shared{*seller}) == made);
  CHECK(scorer_for(seller, buyer) != made);
  // A valuation that names no side is not scored.
  auto sideless = party(msg::bargaining_side::from_role, 0.1);
  CHECK_FALSE(scorer_for(buyer, shared{sideless}));
}

} // namespace unit_negotiation_scoring_test
