#include "actors/agent/actor.hpp"

#include <catch2/catch.hpp>

#include "actors/room/actor.hpp"
#include "support/actor_fixture.hpp"

namespace actor_actors_agent_actor_test {

using namespace std::chrono_literals;
using parley::messages::agent_spec;
using parley::messages::brain_kind;
using parley::messages::negotiation_event_kind;
using parley::messages::negotiation_status;
using parley::messages::proposal;
using parley::messages::proposal_patch;
using parley::messages::reply_action;
using parley::messages::script_reply;
using parley::test::actor_fixture;

namespace {

script_reply scripted(reply_action action, std::int64_t amount = 0,
                      std::int64_t delay_ms = 0) {
  script_reply x;
  x.action = action;
  if (amount > 0) {
    proposal_patch patch;
    patch.amount = amount;
    x.proposal = patch;
  }
  x.delay_ms = delay_ms;
  return x;
}

agent_spec script_agent(std::string id, std::vector<script_reply> replies) {
  agent_spec spec;
  spec.id = std::move(id);
  spec.brain.kind = brain_kind::script;
  spec.brain.script = std::move(replies);
  return spec;
}

/// Two agents in one room; the first one opens a negotiation.
struct agent_pair {
  agent_pair(actor_fixture& fx, agent_spec first, agent_spec second) : fx(fx) {
    a = parley::actors::agent::spawn_agent(fx.sys, first, 5, {fx.events});
    b = parley::actors::agent::spawn_agent(fx.sys, second, 5, {fx.events});
    parley::messages::room_spec spec;
    spec.id = "room-1";
    spec.members = {{first.id, a, false}, {second.id, b, false}};
    spec.events = fx.events;
    room = parley::actors::room::spawn_room(fx.sys, std::move(spec), fx.timers, fx.negotiations);
    responder = second.id;
    fx.keep(a);
    fx.keep(b);
    fx.keep(room);
  }

  void open(proposal p) {
    fx.send(a, parley::messages::initiate_negotiation{room, responder, std::move(p),
                                                      {}, {}});
    fx.run();
  }

  const parley::messages::negotiation_record& last() const {
    return fx.seen.last_record();
  }

  actor_fixture& fx;
  parley::actors::agent_actor a;
  parley::actors::agent_actor b;
  parley::actors::room_actor room;
  std::string responder;
};

proposal gbp(std::int64_t amount, bool escrow = false) {
  proposal p;
  p.amount = amount;
  p.escrow = escrow;
  return p;
}

/// A negotiation at 10000 whose responder counters 9000 after a think time
/// of `delay_ms`, opened.
agent_pair thinking_pair(actor_fixture& fx, std::int64_t delay_ms) {
  agent_pair pair{
      fx, script_agent("initiator", {}),
      script_agent("responder", {scripted(reply_action::counter, 9000, delay_ms)})};
  pair.open(gbp(10000));
  return pair;
}

} // namespace

TEST_CASE("scripted agents play the W1 exchange to agreement", "[actor]") {
  actor_fixture fx;
  // Initiator proposes 10000; responder counters 85 %; initiator counters the
  // midpoint; responder accepts.
  agent_pair pair{fx,
                  script_agent("initiator", {scripted(reply_action::counter, 9250)}),
                  script_agent("responder", {scripted(reply_action::counter, 8500),
                                             scripted(reply_action::accept)})};
  pair.open(gbp(10000));
  using k = negotiation_event_kind;
  REQUIRE(fx.seen.kinds() ==
          std::vector<k>{k::started, k::updated, k::updated, k::agreed});
  const auto& r = pair.last();
  CHECK(r.status == negotiation_status::accepted);
  REQUIRE(r.rounds.size() == 4);
  CHECK(r.rounds[0].from_agent == "initiator");
  CHECK(r.rounds[1].proposal.amount == 8500);
  CHECK(r.rounds[2].proposal.amount == 9250);
  CHECK(r.rounds[3].from_agent == "responder");
  CHECK(r.final_proposal->amount == 9250);
  CHECK(fx.seen.problems.empty());
}

TEST_CASE("a scripted think time is a delayed message, not a wait", "[actor]") {
  actor_fixture fx;
  auto pair = thinking_pair(fx, 5000);
  fx.advance(4999ms);
  CHECK(fx.seen.kinds().size() == 1);
  fx.advance(1ms);
  REQUIRE(fx.seen.kinds().size() == 2);
  CHECK(pair.last().current_proposal.amount == 9000);
  CHECK(pair.last().rounds[1].timestamp - pair.last().created_at == 5000);
}

TEST_CASE("a think time past the offer's deadline sends nothing", "[actor]") {
  actor_fixture fx;
  // The counter would come 31 s after the proposal: the round timeout is 30 s.
  thinking_pair(fx, 31000);
  fx.advance(30s);
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
  fx.advance(1s);
  fx.run();
  // The agent knew the deadline from the offer's terms and dropped its
  // reply: no late message reached the negotiation's actor to be warned of.
  using k = negotiation_event_kind;
  CHECK(fx.seen.kinds() == std::vector<k>{k::started, k::expired});
  CHECK(fx.seen.problems.empty());
}

TEST_CASE("a think time within the offer's deadline still answers", "[actor]") {
  actor_fixture fx;
  auto pair = thinking_pair(fx, 29999);
  fx.advance(29999ms);
  using k = negotiation_event_kind;
  REQUIRE(fx.seen.kinds() == std::vector<k>{k::started, k::updated});
  CHECK(pair.last().current_proposal.amount == 9000);
}

TEST_CASE("a silent responder lets the negotiation expire", "[actor]") {
  actor_fixture fx;
  agent_pair pair{fx, script_agent("initiator", {}),
                  script_agent("responder", {scripted(reply_action::silent)})};
  pair.open(gbp(10000));
  fx.advance(30s);
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
}

TEST_CASE("a scripted reject ends the negotiation with its reason", "[actor]") {
  actor_fixture fx;
  auto no = scripted(reply_action::reject);
  no.reason = "Budget is fixed";
  agent_pair pair{fx, script_agent("initiator", {}), script_agent("responder", {no})};
  pair.open(gbp(10000));
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::rejected);
  CHECK(pair.last().status_reason == "Budget is fixed");
}

TEST_CASE("two rule agents negotiate a deal within their limits", "[actor]") {
  actor_fixture fx;
  agent_spec client;
  client.id = "client";
  client.profile.role = "client";
  client.profile.preferences.max_auto_approve_amount = 150000;
  client.profile.preferences.escrow_threshold = 50000;
  agent_spec freelancer = client;
  freelancer.id = "freelancer";
  freelancer.profile.role = "freelancer";
  freelancer.profile.preferences.max_auto_approve_amount = 500000;
  agent_pair pair{fx, client, freelancer};
  pair.open(gbp(100000, true));
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::agreed);
  const auto& r = pair.last();
  CHECK(r.final_proposal->amount >= 100000);
  CHECK(r.final_proposal->amount <= 150000);
  CHECK(r.final_proposal->escrow);
  CHECK(fx.seen.problems.empty());
}

} // namespace actor_actors_agent_actor_test
