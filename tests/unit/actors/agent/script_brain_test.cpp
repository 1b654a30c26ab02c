#include "actors/agent/script_brain.hpp"

#include <utility>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_agent_script_brain_test {

using parley::actors::agent::offer_context;
using parley::actors::agent::script_brain;
using parley::messages::proposal;
using parley::messages::proposal_patch;
using parley::messages::reply_action;
using parley::messages::script_reply;

namespace {

proposal logo_offer() {
  proposal x;
  x.amount = 100000;
  x.currency = "EUR";
  x.escrow = true;
  x.description = "Logo design";
  x.terms.text = R"({"deadline":"friday"})";
  return x;
}

offer_context context_for(proposal incoming) {
  offer_context ctx;
  ctx.negotiation_id = "n-1";
  ctx.incoming = std::move(incoming);
  return ctx;
}

script_reply reply(reply_action action, std::string reason, std::int64_t delay_ms) {
  script_reply x;
  x.action = action;
  x.reason = std::move(reason);
  x.delay_ms = delay_ms;
  return x;
}

} // namespace

TEST_CASE("a script brain replies in order, then stays silent", "[unit]") {
  auto counter = reply(reply_action::counter, "lower please", 1500);
  proposal_patch patch;
  patch.amount = 90000;
  counter.proposal = patch;
  script_brain brain{{counter, reply(reply_action::accept, "deal", 200)}};
  CHECK(brain.remaining() == 2);
  auto first = brain.decide(context_for(logo_offer()));
  REQUIRE(first);
  CHECK(first->action == reply_action::counter);
  CHECK(first->proposal.amount == 90000);
  CHECK(first->reason == "lower please");
  CHECK(first->delay_ms == 1500);
  auto second = brain.decide(context_for(logo_offer()));
  REQUIRE(second);
  CHECK(second->action == reply_action::accept);
  CHECK(second->reason == "deal");
  CHECK(second->delay_ms == 200);
  CHECK(brain.remaining() == 0);
  for (auto i = 0; i < 3; ++i) {
    auto after = brain.decide(context_for(logo_offer()));
    REQUIRE(after);
    CHECK(after->action == reply_action::silent);
    CHECK(after->reason == "the script has no more replies");
    CHECK(after->delay_ms == 0);
  }
}

TEST_CASE("a scripted counter inherits what its patch leaves empty", "[unit]") {
  auto counter = reply(reply_action::counter, "", 0);
  proposal_patch patch;
  patch.amount = 90000;
  patch.description = std::string{"Logo only"};
  counter.proposal = patch;
  script_brain brain{{counter}};
  auto answer = brain.decide(context_for(logo_offer()));
  REQUIRE(answer);
  CHECK(answer->proposal.amount == 90000);
  CHECK(answer->proposal.description == "Logo only");
  CHECK(answer->proposal.currency == "EUR");
  CHECK(answer->proposal.escrow);
  CHECK(answer->proposal.terms.text == R"({"deadline":"friday"})");
}

TEST_CASE("a scripted counter without a patch repeats the offer", "[unit]") {
  script_brain brain{{reply(reply_action::counter, "same again", 0)}};
  auto answer = brain.decide(context_for(logo_offer()));
  REQUIRE(answer);
  CHECK(answer->action == reply_action::counter);
  CHECK(answer->proposal == logo_offer());
}

TEST_CASE("scripted rejects and silences carry their reason and delay", "[unit]") {
  script_brain brain{{reply(reply_action::silent, "thinking", 5000),
                      reply(reply_action::reject, "too expensive", 750)}};
  auto silent = brain.decide(context_for(logo_offer()));
  REQUIRE(silent);
  CHECK(silent->action == reply_action::silent);
  CHECK(silent->reason == "thinking");
  CHECK(silent->delay_ms == 5000);
  auto rejected = brain.decide(context_for(logo_offer()));
  REQUIRE(rejected);
  CHECK(rejected->action == reply_action::reject);
  CHECK(rejected->reason == "too expensive");
  CHECK(rejected->delay_ms == 750);
}

TEST_CASE("an empty script is silent from the start", "[unit]") {
  script_brain brain{{}};
  auto answer = brain.decide(context_for(logo_offer()));
  REQUIRE(answer);
  CHECK(answer->action == reply_action::silent);
}

} // namespace unit_actors_agent_script_brain_test
