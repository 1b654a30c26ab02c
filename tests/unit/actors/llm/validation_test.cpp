#include "actors/llm/validation.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace unit_actors_llm_validation_test {

using namespace parley::actors::llm;
using nlohmann::json;
using parley::messages::agent_preferences;
using parley::messages::escrow_preference;
using parley::messages::proposal;
using parley::messages::reply_action;

constexpr auto buyer = parley::messages::bargaining_side::buyer;
constexpr auto seller = parley::messages::bargaining_side::seller;

namespace {

agent_preferences prefs() {
  agent_preferences p;
  p.max_auto_approve_amount = 100000;
  p.escrow_preference = escrow_preference::above_threshold;
  p.escrow_threshold = 50000;
  return p;
}

proposal offer(std::int64_t amount, bool escrow = false) {
  proposal p;
  p.amount = amount;
  p.escrow = escrow;
  p.description = "Logo";
  return p;
}

} // namespace

TEST_CASE("accept keeps the user's hard rules", "[unit]") {
  json accept = {{"decision", "accept"}, {"reason", "fine"}};
  CHECK(check_evaluation(accept, offer(10000), prefs(), buyer).value.action ==
        reply_action::accept);
  CHECK(
      check_evaluation(accept, offer(150000, true), prefs(), buyer)
          .error.find(
              "Error: cannot accept £1,500.00: above your user's auto-approve limit") ==
      0);
  CHECK_FALSE(
      check_evaluation(accept, offer(60000, false), prefs(), buyer).ok()); // escrow
}

TEST_CASE("a counter needs a positive integer amount within the limit", "[unit]") {
  auto counter = [](json p) {
    return json{{"decision", "counter"}, {"reason", "r"}, {"counter_proposal", p}};
  };
  auto ok =
      check_evaluation(counter({{"amount", 60000}}), offer(10000), prefs(), buyer);
  REQUIRE(ok.ok());
  CHECK(ok.value.proposal.amount == 60000);
  CHECK(ok.value.proposal.escrow); // the escrow rule, not the model
  CHECK(ok.value.proposal.description == "Logo");
  CHECK_FALSE(
      check_evaluation({{"decision", "counter"}}, offer(1), prefs(), buyer).ok());
  CHECK_FALSE(
      check_evaluation(counter({{"amount", 12.5}}), offer(1), prefs(), buyer).ok());
  CHECK_FALSE(
      check_evaluation(counter({{"amount", -3}}), offer(1), prefs(), buyer).ok());
  CHECK_FALSE(
      check_evaluation(counter({{"amount", "100"}}), offer(1), prefs(), buyer).ok());
  CHECK_FALSE(
      check_evaluation(counter({{"amount", 100001}}), offer(1), prefs(), buyer).ok());
  CHECK_FALSE(check_evaluation(counter({{"amount", 18446744073709551615ULL}}), offer(1),
                               prefs(), buyer)
                  .ok());
}

TEST_CASE("unknown decisions and shapes are refused", "[unit]") {
  CHECK(check_evaluation({{"decision", "maybe"}}, offer(1), prefs(), buyer).error ==
        "Error: unknown decision \"maybe\"; use accept, counter or reject");
  CHECK_FALSE(check_evaluation("text", offer(1), prefs(), buyer).ok());
  CHECK_FALSE(check_evaluation(json::array(), offer(1), prefs(), buyer).ok());
  CHECK(check_evaluation({{"decision", "reject"}}, offer(1), prefs(), buyer)
            .value.action == reply_action::reject);
}

TEST_CASE("the model cannot accept or propose past the reservation price", "[unit]") {
  json accept = {{"decision", "accept"}, {"reason", "fine"}};
  // A seller's floor defaults to a tenth of its limit: £100.00 here.
  CHECK(check_evaluation(accept, offer(100), prefs(), seller).error ==
        "Error: cannot accept £1.00: below your user's floor of £100.00; counter or "
        "reject instead");
  CHECK(check_evaluation(accept, offer(10000), prefs(), seller).ok());
  CHECK(check_proposal({{"amount", 9999}}, prefs(), seller).error ==
        "Error: cannot propose £99.99: below your user's floor of £100.00");
  CHECK(check_proposal({{"amount", 9999}}, prefs(), buyer).ok());
  auto tight = prefs();
  tight.reservation_amount = 20000;
  CHECK(
      check_evaluation(accept, offer(20001), tight, buyer).error ==
      "Error: cannot accept £200.01: above your user's ceiling of £200.00; counter or "
      "reject instead");
  CHECK(check_proposal({{"amount", 20000}}, tight, buyer).ok());
  CHECK_FALSE(check_proposal({{"amount", 19999}}, tight, seller).ok());
}

} // namespace unit_actors_llm_validation_test
