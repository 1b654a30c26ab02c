#include "actors/agent/brain.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_agent_brain_test {

using parley::actors::agent::make_brain;
using parley::actors::agent::offer_context;
using parley::messages::agent_profile;
using parley::messages::bargaining_side;
using parley::messages::brain_kind;
using parley::messages::brain_spec;
using parley::messages::escrow_preference;
using parley::messages::reply_action;
using parley::messages::script_reply;

namespace {

agent_profile client_profile() {
  agent_profile x;
  x.display_name = "Alice";
  x.role = "client";
  x.preferences.max_auto_approve_amount = 200000;
  x.preferences.escrow_preference = escrow_preference::never;
  return x;
}

offer_context opening_of(std::int64_t amount) {
  offer_context ctx;
  ctx.incoming.amount = amount;
  return ctx;
}

} // namespace

TEST_CASE("make_brain builds the rule brain on the spec's side", "[unit]") {
  brain_spec spec;
  auto from_role = make_brain(spec, client_profile());
  auto bought = from_role->decide(opening_of(100000));
  REQUIRE(bought);
  CHECK(bought->action == reply_action::counter);
  CHECK(bought->proposal.amount == 85000);
  spec.side = bargaining_side::seller;
  auto sold = make_brain(spec, client_profile())->decide(opening_of(100000));
  REQUIRE(sold);
  CHECK(sold->proposal.amount == 115000);
}

TEST_CASE("make_brain builds the script brain from the spec's replies", "[unit]") {
  brain_spec spec;
  spec.kind = brain_kind::script;
  script_reply accept;
  accept.action = reply_action::accept;
  accept.reason = "scripted";
  spec.script = {accept};
  auto brain = make_brain(spec, client_profile());
  auto first = brain->decide(opening_of(100000));
  REQUIRE(first);
  CHECK(first->action == reply_action::accept);
  CHECK(first->reason == "scripted");
  auto second = brain->decide(opening_of(100000));
  REQUIRE(second);
  CHECK(second->action == reply_action::silent);
}

} // namespace unit_actors_agent_brain_test
