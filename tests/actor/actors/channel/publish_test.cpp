// A channel publishes each event on its "towow.*" topic; the bus delivers it
// to the subscribers of that topic only. Its reporter gets its end.

#include "actors/channel/actor.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/bus/actor.hpp"
#include "support/actor_fixture.hpp"

namespace actor_actors_channel_publish_test {

using namespace parley::messages;
using parley::test::actor_fixture;

namespace {

/// A channel of bob and carol over `events`, both offering, then accepting.
std::vector<channel_event> play(actor_fixture& f, const event_sink& events) {
  std::vector<caf::message> bob_inbox;
  std::vector<caf::message> carol_inbox;
  std::vector<channel_event> reported;
  parley::actors::channel::channel_spec spec;
  spec.channel_id = "collab-1";
  spec.demand_id = "d-1";
  spec.surface_demand = "an AI meetup";
  spec.candidates.push_back(
      {"bob", "Bob", "venue", 80, f.spawn_channel_probe(bob_inbox), {"venue"}});
  spec.candidates.push_back(
      {"carol", "Carol", "speaker", 70, f.spawn_channel_probe(carol_inbox), {"speaker"}});
  auto channel = parley::actors::channel::spawn_channel(
      f.sys, spec, {events, f.spawn_channel_listener(reported), f.timers});
  f.run();
  for (const auto* agent : {"bob", "carol"}) {
    offer_response x;
    x.message_id = std::string{"o-"} + agent;
    x.channel_id = "collab-1";
    x.agent_id = agent;
    x.decision = offer_decision::participate;
    x.contribution = "a part";
    f.send(channel, x);
  }
  f.run();
  for (const auto* agent : {"bob", "carol"})
    f.send(channel, proposal_feedback{std::string{"f-"} + agent, "collab-1", agent,
                                      feedback_type::accept, "", ""});
  f.run();
  return reported;
}

std::vector<channel_event_kind> kinds(const std::vector<channel_event>& xs) {
  std::vector<channel_event_kind> out;
  for (const auto& x : xs)
    out.push_back(x.kind);
  return out;
}

} // namespace

const std::vector<channel_event_kind> every_kind{
    channel_event_kind::created,
    channel_event_kind::demand_broadcast,
    channel_event_kind::offer_submitted,
    channel_event_kind::offer_submitted,
    channel_event_kind::proposal_distributed,
    channel_event_kind::proposal_feedback,
    channel_event_kind::proposal_feedback,
    channel_event_kind::feedback_evaluated,
    channel_event_kind::finalized};

TEST_CASE("a channel's events reach the bus's subscribers, and its end its reporter too",
          "[actor]") {
  actor_fixture f;
  auto reported = play(f, f.events);
  REQUIRE(reported.size() == 1);
  CHECK(reported.front().kind == channel_event_kind::finalized);
  // The fixture's recorder subscribed to every topic: it saw each event, in
  // order, the last one as the reporter did.
  CHECK(kinds(f.seen.channel_events) == every_kind);
  CHECK(f.seen.channel_events.back() == reported.front());
}

TEST_CASE("a subscriber of one towow topic gets that topic's events only", "[actor]") {
  actor_fixture f;
  auto bus = parley::actors::bus::spawn_bus(f.sys);
  f.keep(bus.bus());
  std::vector<caf::message> finals;
  std::vector<caf::message> offers;
  bus.subscribe(topic_set::matching("towow.proposal.finalized"),
                f.spawn_listener(finals));
  bus.subscribe(topic_set::matching("towow.offer.submitted"), f.spawn_listener(offers));
  auto reported = play(f, bus);
  REQUIRE(reported.size() == 1);
  REQUIRE(finals.size() == 1);
  REQUIRE(finals.front().match_elements<channel_event>());
  CHECK(finals.front().get_as<channel_event>(0) == reported.front());
  REQUIRE(offers.size() == 2);
  CHECK(offers[0].get_as<channel_event>(0).offer->agent_id == "bob");
  CHECK(offers[1].get_as<channel_event>(0).offer->agent_id == "carol");
  // The fixture's own bus heard nothing of this channel.
  CHECK(f.seen.channel_events.empty());
}

TEST_CASE("a channel whose bus has no towow subscriber still reports its end",
          "[actor]") {
  actor_fixture f;
  auto bus = parley::actors::bus::spawn_bus(f.sys);
  f.keep(bus.bus());
  std::vector<caf::message> problems;
  bus.subscribe(problem_topics, f.spawn_listener(problems));
  CHECK_FALSE(bus.wants_any(channel_topics));
  auto reported = play(f, bus);
  REQUIRE(reported.size() == 1);
  CHECK(reported.front().kind == channel_event_kind::finalized);
  CHECK(problems.empty());
}

} // namespace actor_actors_channel_publish_test
