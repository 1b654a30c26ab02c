#include "actors/channel/member.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/channel/actor.hpp"
#include "support/actor_fixture.hpp"

namespace actor_actors_channel_member_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::actors::channel_member_actor;
using parley::test::actor_fixture;

namespace {

using kind = channel_event_kind;

channel_member_spec rule_member(const std::string& id, std::string capability,
                                std::int32_t accept_from_round = 1) {
  channel_member_spec x;
  x.profile.agent_id = id;
  x.profile.display_name = "Agent " + id;
  x.profile.capabilities = {std::move(capability)};
  x.accept_from_round = accept_from_round;
  return x;
}

member_round answer(scripted_offer offer, scripted_feedback feedback) {
  member_round x;
  x.offer = offer;
  x.feedback = feedback;
  return x;
}

/// A member who answers every one of `rounds` rounds the same way.
channel_member_spec scripted(const std::string& id, member_round every_round,
                             int rounds = 5) {
  auto x = rule_member(id, "venue");
  x.brain = member_brain_kind::script;
  x.script.assign(static_cast<std::size_t>(rounds), every_round);
  return x;
}

/// Real members in a real channel on the venue demand, and the channel's
/// events.
struct member_world {
  actor_fixture f;
  std::vector<channel_event>& events = f.seen.channel_events;

  explicit member_world(const std::vector<channel_member_spec>& members) {
    parley::actors::channel::channel_spec spec;
    spec.channel_id = "collab-1";
    spec.demand_id = "d-1";
    spec.surface_demand = "an AI meetup in Beijing";
    spec.capability_tags = {"venue", "catering"};
    for (const auto& m : members) {
      auto member = parley::actors::channel::spawn_member(f.sys, m, f.events);
      f.keep(member);
      spec.candidates.push_back({m.profile.agent_id, m.profile.display_name, "can help",
                                 80, member, m.profile.capabilities});
    }
    auto channel =
        parley::actors::channel::spawn_channel(f.sys, spec, {f.events, {}, f.timers});
    f.keep(channel);
    f.run();
  }

  std::size_t count(kind k) const {
    std::size_t n = 0;
    for (const auto& x : events)
      n += x.kind == k ? 1 : 0;
    return n;
  }
};

} // namespace

TEST_CASE("a channel of three rule members finalizes in round 1",
          "[actor][channel][member]") {
  member_world w{{rule_member("ann", "venue"), rule_member("bob", "catering"),
                  rule_member("cat", "speakers")}};
  REQUIRE_FALSE(w.events.empty());
  REQUIRE(w.events.back().kind == kind::finalized);
  CHECK(w.events.back().round == 1);
  const auto& proposal = *w.events.back().proposal;
  // cat has no capability the demand asks for: it declined.
  REQUIRE(proposal.assignments.size() == 2);
  CHECK(proposal.assignments[0].agent_id == "ann");
  CHECK(proposal.assignments[0].responsibility == "Agent ann provides venue");
  CHECK(proposal.assignments[1].agent_id == "bob");
  CHECK(w.count(kind::offer_submitted) == 3);
  CHECK(w.count(kind::proposal_feedback) == 2);
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("rule members that accept late renegotiate until the channel finalizes",
          "[actor][channel][member]") {
  // 3 of 4 accept from round 1 (75 %), the fourth from round 3.
  member_world w{{rule_member("a", "venue"), rule_member("b", "venue"),
                  rule_member("c", "venue"), rule_member("d", "venue", 3)}};
  REQUIRE(w.events.back().kind == kind::finalized);
  CHECK(w.events.back().round == 3);
  CHECK(w.count(kind::round_started) == 2);
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("a script that keeps renegotiating is force finalized at round 5",
          "[actor][channel][member]") {
  auto accept = answer(scripted_offer::participate, scripted_feedback::accept);
  auto negotiate = answer(scripted_offer::participate, scripted_feedback::negotiate);
  member_world w{{scripted("a", accept), scripted("b", accept), scripted("c", accept),
                  scripted("d", negotiate), scripted("e", negotiate)}};
  REQUIRE(w.events.back().kind == kind::force_finalized);
  CHECK(w.events.back().round == 5);
  CHECK(w.count(kind::round_started) == 4);
  const auto& proposal = *w.events.back().proposal;
  CHECK(proposal.is_forced);
  CHECK(proposal.confirmed_participants == std::vector<std::string>{"a", "b", "c"});
  CHECK(proposal.optional_participants == std::vector<std::string>{"d", "e"});
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("a channel whose members mostly negotiate fails with low_acceptance",
          "[actor][channel][member]") {
  member_world w{{rule_member("a", "venue"), rule_member("b", "venue", 2),
                  rule_member("c", "venue", 2)}};
  REQUIRE(w.events.back().kind == kind::failed);
  CHECK(w.events.back().reason == "low_acceptance");
  CHECK(w.events.back().round == 1);
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("a silent member leaves the channel to its timeouts",
          "[actor][channel][member]") {
  auto accept = answer(scripted_offer::participate, scripted_feedback::accept);
  auto mute = answer(scripted_offer::participate, scripted_feedback::silent);
  SECTION("silent on the demand: the response timeout closes the collection") {
    member_world w{
        {scripted("a", accept), scripted("b", accept),
         scripted("c", answer(scripted_offer::silent, scripted_feedback::silent))}};
    CHECK(w.events.back().kind == kind::offer_submitted);
    w.f.advance(300000ms);
    REQUIRE(w.events.back().kind == kind::finalized);
    CHECK(w.events.back().proposal->assignments.size() == 2);
  }
  SECTION("silent on the proposal: the feedback timeout evaluates without it") {
    member_world w{{scripted("a", accept), scripted("b", accept), scripted("c", mute)}};
    CHECK(w.events.back().kind == kind::proposal_feedback);
    w.f.advance(120000ms);
    // 2 of 3 accepted: a new round, in which c is silent again, until the
    // last round is force finalized.
    CHECK(w.count(kind::round_started) == 1);
    for (int round = 2; round <= 5; ++round)
      w.f.advance(120000ms);
    REQUIRE(w.events.back().kind == kind::force_finalized);
    CHECK(w.events.back().round == 5);
    CHECK(w.events.back().proposal->optional_participants.empty());
  }
  SECTION("silent from the first round on: the channel fails with timeout") {
    auto nothing = answer(scripted_offer::silent, scripted_feedback::silent);
    member_world w{{scripted("a", nothing)}};
    w.f.advance(300000ms);
    REQUIRE(w.events.back().kind == kind::failed);
    CHECK(w.events.back().reason == "timeout");
  }
}

TEST_CASE("one member answers many channels at once", "[actor][channel][member]") {
  actor_fixture f;
  auto member = parley::actors::channel::spawn_member(
      f.sys, rule_member("ann", "venue"), f.events);
  f.keep(member);
  std::vector<channel_event> events;
  auto reporter = f.spawn_channel_listener(events);
  for (int i = 0; i < 3; ++i) {
    parley::actors::channel::channel_spec spec;
    spec.channel_id = "collab-" + std::to_string(i);
    spec.capability_tags = {"venue"};
    spec.candidates.push_back({"ann", "Ann", "", 80, member, {"venue"}});
    f.keep(parley::actors::channel::spawn_channel(f.sys, spec,
                                                  {f.events, reporter, f.timers}));
  }
  f.run();
  std::vector<std::string> finalized;
  for (const auto& x : events)
    if (x.kind == kind::finalized)
      finalized.push_back(x.channel_id);
  CHECK(finalized.size() == 3);
  CHECK(f.seen.problems.empty());
}

TEST_CASE("a member with an invalid spec is refused with E001",
          "[actor][channel][member]") {
  actor_fixture f;
  parley::actors::channel::spawn_member(f.sys, rule_member("", "venue"), f.events);
  f.run();
  CHECK(f.seen.codes() == std::vector<error_code>{error_code::invalid_request});
}

} // namespace actor_actors_channel_member_test
