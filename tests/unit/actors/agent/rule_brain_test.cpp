#include "actors/agent/rule_brain.hpp"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_agent_rule_brain_test {

using parley::actors::agent::counter_distance_bp;
using parley::actors::agent::offer_context;
using parley::actors::agent::resolve_side;
using parley::actors::agent::rule_brain;
using parley::messages::agent_profile;
using parley::messages::bargaining_side;
using parley::messages::decision;
using parley::messages::escrow_preference;
using parley::messages::escrow_required;
using parley::messages::negotiation_style;
using parley::messages::proposal;
using parley::messages::reply_action;

namespace {

/// A GBP agent with a £2,000.00 limit that never uses escrow.
agent_profile profile_of(negotiation_style style, std::string role = "client") {
  agent_profile x;
  x.display_name = "Agent";
  x.role = std::move(role);
  x.preferences.max_auto_approve_amount = 200000;
  x.preferences.escrow_preference = escrow_preference::never;
  x.preferences.style = style;
  return x;
}

agent_profile seller_of(negotiation_style style) {
  return profile_of(style, "freelancer");
}

proposal offer_of(std::int64_t amount, bool escrow = false,
                  std::string currency = "GBP") {
  proposal x;
  x.amount = amount;
  x.currency = std::move(currency);
  x.escrow = escrow;
  x.description = "Website redesign";
  x.terms.text = R"({"weeks":3})";
  return x;
}

offer_context context_of(proposal incoming, std::int32_t round = 1,
                         std::optional<std::int64_t> my_last = std::nullopt,
                         std::int32_t max_rounds = 5) {
  offer_context ctx;
  ctx.negotiation_id = "n-1";
  ctx.incoming = std::move(incoming);
  ctx.my_last_amount = my_last;
  ctx.round = round;
  ctx.max_rounds = max_rounds;
  return ctx;
}

decision decide(const agent_profile& profile, const offer_context& ctx) {
  rule_brain brain{bargaining_side::from_role, profile};
  auto result = brain.decide(ctx);
  REQUIRE(result);
  return *result;
}

void check_counter(const decision& x, std::int64_t amount, bool escrow = false) {
  CHECK(x.action == reply_action::counter);
  CHECK(x.proposal.amount == amount);
  CHECK(x.proposal.escrow == escrow);
  CHECK(x.proposal.currency == "GBP");
  CHECK(x.proposal.description == "Website redesign");
  CHECK(x.proposal.terms.text == R"({"weeks":3})");
  CHECK(x.delay_ms == 0);
}

} // namespace

TEST_CASE("the counter distance narrows linearly over the rounds", "[unit]") {
  auto balanced = negotiation_style::balanced;
  CHECK(counter_distance_bp(balanced, 1, 5) == 1500);
  CHECK(counter_distance_bp(balanced, 2, 5) == 1375);
  CHECK(counter_distance_bp(balanced, 3, 5) == 1250);
  CHECK(counter_distance_bp(balanced, 4, 5) == 1125);
  CHECK(counter_distance_bp(balanced, 5, 5) == 1000);
  auto aggressive = negotiation_style::aggressive;
  CHECK(counter_distance_bp(aggressive, 1, 5) == 3000);
  CHECK(counter_distance_bp(aggressive, 2, 5) == 2750);
  CHECK(counter_distance_bp(aggressive, 5, 5) == 2000);
  CHECK(counter_distance_bp(negotiation_style::conservative, 1, 5) == 500);
  CHECK(counter_distance_bp(negotiation_style::conservative, 5, 5) == 500);
  // One round only: the first distance; rounds outside the range clamp.
  CHECK(counter_distance_bp(balanced, 1, 1) == 1500);
  CHECK(counter_distance_bp(balanced, 0, 5) == 1500);
  CHECK(counter_distance_bp(balanced, 9, 5) == 1000);
  // 3000 - 1000 * 1 / 2 = 2500 with three rounds.
  CHECK(counter_distance_bp(aggressive, 2, 3) == 2500);
}

TEST_CASE("each style's first counter to a £1,000.00 opening", "[unit]") {
  SECTION("aggressive: 30% away") {
    auto buyer =
        decide(profile_of(negotiation_style::aggressive), context_of(offer_of(100000)));
    check_counter(buyer, 70000);
    CHECK(buyer.reason ==
          "Countering at £700.00: aggressive style, 30% below the offer");
    auto seller =
        decide(seller_of(negotiation_style::aggressive), context_of(offer_of(100000)));
    check_counter(seller, 130000);
    CHECK(seller.reason ==
          "Countering at £1,300.00: aggressive style, 30% above the offer");
  }
  SECTION("balanced: 15% away") {
    auto buyer =
        decide(profile_of(negotiation_style::balanced), context_of(offer_of(100000)));
    check_counter(buyer, 85000);
    CHECK(buyer.reason == "Countering at £850.00: balanced style, 15% below the offer");
    auto seller =
        decide(seller_of(negotiation_style::balanced), context_of(offer_of(100000)));
    check_counter(seller, 115000);
    CHECK(seller.reason ==
          "Countering at £1,150.00: balanced style, 15% above the offer");
  }
  SECTION("balanced in round 3 of 5: 12.5% away") {
    auto buyer = decide(profile_of(negotiation_style::balanced),
                        context_of(offer_of(100000), 3));
    check_counter(buyer, 87500);
    CHECK(buyer.reason ==
          "Countering at £875.00: balanced style, 12.5% below the offer");
  }
  SECTION("conservative: accepts a valid opening, else counters 5% away") {
    auto accepted = decide(profile_of(negotiation_style::conservative),
                           context_of(offer_of(100000)));
    CHECK(accepted.action == reply_action::accept);
    CHECK(accepted.reason ==
          "Accepting £1,000.00: conservative style takes a reasonable opening offer");
    auto buyer = decide(profile_of(negotiation_style::conservative),
                        context_of(offer_of(100000, true)));
    check_counter(buyer, 95000);
    CHECK(buyer.reason == "Countering at £950.00: conservative style, 5% below the "
                          "offer, without escrow");
    auto seller = decide(seller_of(negotiation_style::conservative),
                         context_of(offer_of(100000, true)));
    check_counter(seller, 105000);
  }
}

TEST_CASE("an offer exactly at the tolerance is accepted, one unit beyond is countered",
          "[unit]") {
  SECTION("balanced buyer: 5% above its last offer") {
    auto profile = profile_of(negotiation_style::balanced);
    auto at = decide(profile, context_of(offer_of(105000), 2, 100000));
    CHECK(at.action == reply_action::accept);
    CHECK(at.reason == "Accepting £1,050.00: within 5% of my offer of £1,000.00");
    // max(105001 * 0.8625 = 90563, 100000 + ceil(5001 * 0.4) = 102001)
    check_counter(decide(profile, context_of(offer_of(105001), 2, 100000)), 102001);
  }
  SECTION("aggressive buyer: 2% above its last offer") {
    auto profile = profile_of(negotiation_style::aggressive);
    CHECK(decide(profile, context_of(offer_of(102000), 2, 100000)).action ==
          reply_action::accept);
    // max(102001 * 0.725 = 73950, 100000 + ceil(2001 * 0.25) = 100501)
    check_counter(decide(profile, context_of(offer_of(102001), 2, 100000)), 100501);
  }
  SECTION("conservative buyer: 10% above its last offer") {
    auto profile = profile_of(negotiation_style::conservative);
    CHECK(decide(profile, context_of(offer_of(110000), 2, 100000)).action ==
          reply_action::accept);
    // max(110001 * 0.95 = 104500, 100000 + ceil(10001 * 0.5) = 105001)
    check_counter(decide(profile, context_of(offer_of(110001), 2, 100000)), 105001);
  }
  SECTION("balanced seller: 5% below its last offer") {
    auto profile = seller_of(negotiation_style::balanced);
    CHECK(decide(profile, context_of(offer_of(95000), 2, 100000)).action ==
          reply_action::accept);
    // min(ceil(94999 * 1.1375) = 108062, 100000 - ceil(5001 * 0.4) = 97999)
    auto counter = decide(profile, context_of(offer_of(94999), 2, 100000));
    check_counter(counter, 97999);
    CHECK(counter.reason ==
          "Countering at £979.99: balanced style, 3.2% above the offer");
  }
}

TEST_CASE("in the last round the rule brain accepts or rejects", "[unit]") {
  auto profile = profile_of(negotiation_style::balanced);
  profile.preferences.max_auto_approve_amount = 100000;
  profile.preferences.escrow_preference = escrow_preference::above_threshold;
  profile.preferences.escrow_threshold = 50000;
  auto accepted = decide(profile, context_of(offer_of(99000, true), 5, 50000));
  CHECK(accepted.action == reply_action::accept);
  CHECK(accepted.reason == "Accepting £990.00: last round, and it meets my rules");
  CHECK(decide(profile, context_of(offer_of(40000), 6, 30000)).action ==
        reply_action::accept);
  auto over = decide(profile, context_of(offer_of(120000, true), 5, 90000));
  CHECK(over.action == reply_action::reject);
  CHECK(over.reason == "£1,200.00 is above the auto-approve limit of £1,000.00");
  auto unprotected = decide(profile, context_of(offer_of(60000), 5, 50000));
  CHECK(unprotected.action == reply_action::reject);
  CHECK(unprotected.reason == "escrow is required above £500.00");
  auto needless = decide(profile, context_of(offer_of(40000, true), 5, 30000));
  CHECK(needless.action == reply_action::reject);
  CHECK(needless.reason == "escrow is only used above £500.00");
  auto single_round = decide(profile, context_of(offer_of(80000, true), 1, {}, 1));
  CHECK(single_round.action == reply_action::accept);
}

TEST_CASE("an offer in another currency is rejected", "[unit]") {
  auto eur = decide(profile_of(negotiation_style::conservative),
                    context_of(offer_of(100000, false, "EUR")));
  CHECK(eur.action == reply_action::reject);
  CHECK(eur.reason == "Only GBP is accepted, got EUR");
  auto last_round = decide(profile_of(negotiation_style::balanced),
                           context_of(offer_of(100000, false, "EUR"), 5, 100000));
  CHECK(last_round.action == reply_action::reject);
  auto profile = profile_of(negotiation_style::balanced);
  profile.preferences.preferred_currency = "USD";
  auto usd = decide(profile, context_of(offer_of(100000), 2, 100000));
  CHECK(usd.action == reply_action::reject);
  CHECK(usd.reason == "Only USD is accepted, got GBP");
}

TEST_CASE("the rule brain never goes above its auto-approve limit", "[unit]") {
  auto profile = profile_of(negotiation_style::conservative);
  profile.preferences.max_auto_approve_amount = 100000;
  SECTION("a buyer caps its counter at the limit") {
    auto capped = decide(profile, context_of(offer_of(120000)));
    check_counter(capped, 100000);
    CHECK(capped.reason ==
          "Countering at £1,000.00: conservative style, 16.7% below the offer, capped "
          "at the auto-approve limit of £1,000.00");
  }
  SECTION("a buyer at its limit rejects, even within tolerance") {
    profile.preferences.style = negotiation_style::balanced;
    auto stuck = decide(profile, context_of(offer_of(105000), 2, 100000));
    CHECK(stuck.action == reply_action::reject);
    CHECK(stuck.reason == "£1,050.00 is above the auto-approve limit of £1,000.00");
  }
  SECTION("a seller rejects an offer above its limit and accepts one at it") {
    profile.role = "vendor";
    auto over = decide(profile, context_of(offer_of(120000)));
    CHECK(over.action == reply_action::reject);
    CHECK(over.reason == "£1,200.00 is above the auto-approve limit of £1,000.00");
    profile.preferences.style = negotiation_style::balanced;
    auto at = decide(profile, context_of(offer_of(100000)));
    CHECK(at.action == reply_action::accept);
    CHECK(at.reason == "Accepting £1,000.00: as good as any counter I could make");
  }
}

TEST_CASE("the rule brain enforces its escrow rule", "[unit]") {
  auto profile = profile_of(negotiation_style::balanced);
  SECTION("always: a counter adds escrow") {
    profile.preferences.escrow_preference = escrow_preference::always;
    auto counter = decide(profile, context_of(offer_of(100000)));
    check_counter(counter, 85000, true);
    CHECK(counter.reason ==
          "Countering at £850.00: balanced style, 15% below the offer, with escrow");
  }
  SECTION("above the threshold: the flag follows the new amount") {
    profile.preferences.escrow_preference = escrow_preference::above_threshold;
    profile.preferences.escrow_threshold = 50000;
    check_counter(decide(profile, context_of(offer_of(100000, true))), 85000, true);
    // 55000 * 0.85 = 46750, at or below the threshold.
    check_counter(decide(profile, context_of(offer_of(55000, true))), 46750, false);
  }
  SECTION("a price within tolerance with the wrong flag is countered") {
    // max(102000 * 0.8625 = 87975, 100000 + ceil(2000 * 0.4) = 100800)
    auto counter = decide(profile, context_of(offer_of(102000, true), 2, 100000));
    check_counter(counter, 100800);
    CHECK(counter.reason ==
          "Countering at £1,008.00: balanced style, 1.2% below the offer, without "
          "escrow");
  }
  SECTION("an offer past the agent's own meets its amount with the right flag") {
    auto counter = decide(profile, context_of(offer_of(99000, true), 2, 100000));
    check_counter(counter, 99000);
    CHECK(counter.reason ==
          "Countering at £990.00 without escrow: escrow is never used");
    auto same = decide(profile, context_of(offer_of(100000, true), 2, 100000));
    CHECK(same.action == reply_action::reject);
    CHECK(same.reason == "escrow is never used");
  }
}

TEST_CASE("the bargaining side comes from the spec or the role", "[unit]") {
  auto from_role = bargaining_side::from_role;
  CHECK(resolve_side(from_role, "Client") == bargaining_side::buyer);
  CHECK(resolve_side(from_role, "Procurement Purchaser") == bargaining_side::buyer);
  CHECK(resolve_side(from_role, "bill payer") == bargaining_side::buyer);
  CHECK(resolve_side(from_role, "CUSTOMER") == bargaining_side::buyer);
  CHECK(resolve_side(from_role, "FREELANCER") == bargaining_side::seller);
  CHECK(resolve_side(from_role, "Service Provider") == bargaining_side::seller);
  CHECK(resolve_side(from_role, "payee") == bargaining_side::seller);
  CHECK(resolve_side(from_role, "contractor") == bargaining_side::seller);
  CHECK(resolve_side(from_role, "Supplier") == bargaining_side::seller);
  CHECK(resolve_side(from_role, "observer") == bargaining_side::buyer);
  CHECK(resolve_side(from_role, "") == bargaining_side::buyer);
  CHECK(resolve_side(bargaining_side::seller, "client") == bargaining_side::seller);
  CHECK(resolve_side(bargaining_side::buyer, "vendor") == bargaining_side::buyer);
  CHECK(
      rule_brain{from_role, profile_of(negotiation_style::balanced, "Vendor")}.side() ==
      bargaining_side::seller);
}

TEST_CASE("two balanced rule brains settle within five rounds", "[unit]") {
  rule_brain buyer{bargaining_side::buyer, profile_of(negotiation_style::balanced)};
  rule_brain seller{bargaining_side::seller, seller_of(negotiation_style::balanced)};
  // Round 1, the seller's opening £1,000.00: 100000 * 0.85.
  auto r1 = buyer.decide(context_of(offer_of(100000)));
  REQUIRE(r1);
  check_counter(*r1, 85000);
  // Round 2: min(ceil(85000 * 1.1375) = 96688, 100000 - 0.4 * 15000 = 94000).
  auto r2 = seller.decide(context_of(r1->proposal, 2, 100000));
  REQUIRE(r2);
  check_counter(*r2, 94000);
  CHECK(r2->reason == "Countering at £940.00: balanced style, 10.6% above the offer");
  // Round 3: max(94000 * 0.875 = 82250, 85000 + 0.4 * 9000 = 88600).
  auto r3 = buyer.decide(context_of(r2->proposal, 3, 85000));
  REQUIRE(r3);
  check_counter(*r3, 88600);
  // Round 4: min(ceil(88600 * 1.1125) = 98568, 94000 - 0.4 * 5400 = 91840).
  auto r4 = seller.decide(context_of(r3->proposal, 4, 94000));
  REQUIRE(r4);
  check_counter(*r4, 91840);
  // Round 5, the last: £918.40 meets every rule of the buyer.
  auto r5 = buyer.decide(context_of(r4->proposal, 5, 88600));
  REQUIRE(r5);
  CHECK(r5->action == reply_action::accept);
  CHECK(r5->reason == "Accepting £918.40: last round, and it meets my rules");
}

namespace {

/// One rule agent of a simulated negotiation.
struct simulated_agent {
  agent_profile profile;
  bargaining_side side;
  rule_brain brain;
  std::optional<proposal> last;
  /// The agent's own counters, in order (its opening proposal excluded).
  std::vector<std::int64_t> counters;

  simulated_agent(agent_profile p, bargaining_side s)
      : profile(std::move(p)), side(s), brain(s, profile) {}
};

/// Returns a number in [lo, hi] from `gen`'s raw output, which (unlike the
/// distributions) is the same on every standard library.
std::int64_t draw(std::mt19937_64& gen, std::int64_t lo, std::int64_t hi) {
  return lo +
         static_cast<std::int64_t>(gen() % static_cast<std::uint64_t>(hi - lo + 1));
}

agent_profile random_profile(std::mt19937_64& gen, negotiation_style style,
                             std::int64_t opening) {
  agent_profile x;
  x.preferences.style = style;
  x.preferences.max_auto_approve_amount = draw(gen, opening / 2, opening * 2);
  x.preferences.escrow_preference = static_cast<escrow_preference>(draw(gen, 0, 2));
  x.preferences.escrow_threshold = draw(gen, opening / 2, opening * 3 / 2);
  x.preferences.preferred_currency = draw(gen, 0, 7) == 0 ? "EUR" : "GBP";
  return x;
}

/// Plays one negotiation between two rule agents, checking every answer;
/// returns true if it ended in an agreement.
bool play(simulated_agent& opener, simulated_agent& responder, std::int64_t opening,
          std::int32_t max_rounds) {
  auto offer = offer_of(opening, escrow_required(opener.profile.preferences, opening),
                        opener.profile.preferences.preferred_currency);
  opener.last = offer;
  auto* from = &opener;
  auto* to = &responder;
  for (std::int32_t round = 1;; ++round) {
    REQUIRE(round <= max_rounds);
    offer_context ctx;
    ctx.negotiation_id = "n-sim";
    ctx.incoming = offer;
    if (to->last)
      ctx.my_last_amount = to->last->amount;
    ctx.round = round;
    ctx.max_rounds = max_rounds;
    auto answer = to->brain.decide(ctx);
    REQUIRE(answer);
    const auto& prefs = to->profile.preferences;
    if (answer->action == reply_action::accept) {
      CHECK(offer.amount <= prefs.max_auto_approve_amount);
      CHECK(offer.escrow == escrow_required(prefs, offer.amount));
      CHECK(offer.currency == prefs.preferred_currency);
      return true;
    }
    if (answer->action == reply_action::reject) {
      CHECK_FALSE(answer->reason.empty());
      return false;
    }
    REQUIRE(answer->action == reply_action::counter);
    CHECK(round < max_rounds);
    const auto& counter = answer->proposal;
    CHECK(counter.amount <= prefs.max_auto_approve_amount);
    CHECK(counter.escrow == escrow_required(prefs, counter.amount));
    CHECK(counter.currency == prefs.preferred_currency);
    if (to->side == bargaining_side::buyer) {
      CHECK(counter.amount <= offer.amount);
      if (!to->counters.empty())
        CHECK(counter.amount > to->counters.back());
    } else {
      CHECK(counter.amount >= offer.amount);
      if (!to->counters.empty())
        CHECK(counter.amount < to->counters.back());
    }
    to->counters.push_back(counter.amount);
    to->last = counter;
    offer = counter;
    std::swap(from, to);
  }
}

} // namespace

TEST_CASE("rule brains concede monotonically and never break a hard rule", "[unit]") {
  const negotiation_style styles[] = {negotiation_style::aggressive,
                                      negotiation_style::balanced,
                                      negotiation_style::conservative};
  std::mt19937_64 gen{20240601};
  auto agreements = 0;
  auto negotiations = 0;
  for (auto buyer_style : styles) {
    for (auto seller_style : styles) {
      for (auto buyer_opens : {true, false}) {
        for (std::int32_t max_rounds : {1, 2, 3, 5, 8}) {
          for (auto sample = 0; sample < 20; ++sample) {
            auto opening = draw(gen, 100, 1000000);
            simulated_agent buyer{random_profile(gen, buyer_style, opening),
                                  bargaining_side::buyer};
            simulated_agent seller{random_profile(gen, seller_style, opening),
                                   bargaining_side::seller};
            INFO("opening " << opening << ", max_rounds " << max_rounds << ", sample "
                            << sample);
            auto agreed = buyer_opens ? play(buyer, seller, opening, max_rounds)
                                      : play(seller, buyer, opening, max_rounds);
            agreements += agreed ? 1 : 0;
            ++negotiations;
          }
        }
      }
    }
  }
  CHECK(negotiations == 1800);
  // Escrow rules, limits and currencies often clash; a fifth still agree.
  CHECK(agreements > negotiations / 5);
}

TEST_CASE("a seller never goes below its floor: the £1.00 exploit is refused",
          "[unit]") {
  // The defaults' floor is a tenth of the £2,000.00 limit: £200.00.
  auto seller = seller_of(negotiation_style::balanced);
  auto first = decide(seller, context_of(offer_of(100), 1));
  check_counter(first, 20000);
  CHECK(first.reason == "Countering at £200.00: balanced style, 19900% above the "
                        "offer, raised to my floor of £200.00");
  // The buyer repeats £1.00: the seller cannot move, so it rejects.
  auto second = decide(seller, context_of(offer_of(100), 3, 20000));
  CHECK(second.action == reply_action::reject);
  CHECK(second.reason == "£1.00 is below my floor of £200.00");
  // Nor does it give in at the last round.
  auto last = decide(seller, context_of(offer_of(100), 5, 20000));
  CHECK(last.action == reply_action::reject);
  CHECK(last.reason == "£1.00 is below my floor of £200.00");
  // Its own counters above the floor still concede down to it, not past it.
  auto near = decide(seller, context_of(offer_of(19000), 3, 21000));
  CHECK(near.action == reply_action::counter);
  CHECK(near.proposal.amount >= 20000);
}

TEST_CASE("a reservation amount sets a seller's floor and a buyer's ceiling",
          "[unit]") {
  auto seller = seller_of(negotiation_style::conservative);
  seller.preferences.reservation_amount = 50000;
  CHECK(decide(seller, context_of(offer_of(49999), 5, 52000)).action ==
        reply_action::reject);
  CHECK(decide(seller, context_of(offer_of(50000), 5, 52000)).action ==
        reply_action::accept);
  auto buyer = profile_of(negotiation_style::balanced);
  buyer.preferences.reservation_amount = 20000;
  auto counter = decide(buyer, context_of(offer_of(30000), 2, 19000));
  check_counter(counter, 20000);
  CHECK(counter.reason == "Countering at £200.00: balanced style, 33.3% below the "
                          "offer, capped at my ceiling of £200.00");
  auto last = decide(buyer, context_of(offer_of(20001), 5, 20000));
  CHECK(last.action == reply_action::reject);
  CHECK(last.reason == "£200.01 is above my ceiling of £200.00");
  // A ceiling above the auto-approve limit changes nothing: the limit holds.
  buyer.preferences.reservation_amount = 500000;
  CHECK(decide(buyer, context_of(offer_of(200001), 5, 150000)).reason ==
        "£2,000.01 is above the auto-approve limit of £2,000.00");
}

} // namespace unit_actors_agent_rule_brain_test
