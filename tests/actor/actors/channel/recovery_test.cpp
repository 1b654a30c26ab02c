#include "actors/channel/actor.hpp"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/channel_world.hpp"
#include "messages/channel_messages.hpp"

namespace actor_actors_channel_recovery_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::test::channel_world;

namespace {

using kind = channel_event_kind;
using names = std::vector<std::string>;

/// The state checker's defaults (docs/protocols/channels.md, "The state checker": 5 s,
/// stuck after more than 120 s, 3 attempts) with the collection timeouts out of its
/// way.
channel_settings checker_only() {
  channel_settings x;
  x.response_timeout_ms = 3600000;
  x.feedback_timeout_ms = 3600000;
  return x;
}

std::size_t recoveries(const channel_world& w) {
  std::size_t n = 0;
  for (const auto& x : w.events)
    n += parley::actors::channel::is_recovery(x) ? 1 : 0;
  return n;
}

} // namespace

TEST_CASE("a silent candidate is re-asked, then the channel goes on without it",
          "[actor][channel][recovery]") {
  channel_world w{{"a", "b", "c"}, checker_only()};
  w.offer("a", "o-a");
  w.offer("c", "o-c");
  w.f.run();
  w.f.advance(120000ms); // stuck for 120 s: not more than MAX_STUCK_TIME yet
  CHECK(w.events.back().kind == kind::offer_submitted);
  CHECK(recoveries(w) == 0);
  w.f.advance(5000ms); // the next check: stuck for 125 s
  REQUIRE(w.events.back().kind == kind::demand_broadcast);
  const auto& reask = w.events.back();
  CHECK(reask.reason == "stuck_in_collecting");
  CHECK(reask.agents == names{"b"});
  CHECK(reask.round == 1);
  CHECK(reask.at_ms - w.events.front().at_ms == 125000);
  REQUIRE(w.received<demand_offer>("b").size() == 2);
  CHECK(w.received<demand_offer>("b").back().round == 1);
  CHECK(w.received<demand_offer>("a").size() == 1);
  CHECK(w.received<demand_offer>("c").size() == 1);
  // b stays silent another 120 s: nothing yet, then it goes on with a and c.
  w.f.advance(120000ms);
  CHECK(w.events.back().kind == kind::demand_broadcast);
  w.f.advance(5000ms);
  REQUIRE(w.events.back().kind == kind::proposal_distributed);
  const auto& distributed = w.events.back();
  CHECK(distributed.reason == "missing_responses");
  CHECK(recoveries(w) == 2);
  REQUIRE(distributed.proposal->assignments.size() == 2);
  CHECK(distributed.proposal->assignments[0].agent_id == "a");
  CHECK(distributed.proposal->assignments[1].agent_id == "c");
  CHECK(w.received<proposal_review>("b").empty());
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("a late answer to a re-ask counts like any other",
          "[actor][channel][recovery]") {
  channel_world w{{"a", "b"}, checker_only()};
  w.offer("a", "o-a");
  w.f.advance(125000ms);
  REQUIRE(w.events.back().reason == "stuck_in_collecting");
  w.offer("b", "o-b");
  w.f.run();
  REQUIRE(w.events.back().kind == kind::proposal_distributed);
  CHECK(w.events.back().reason.empty());
  CHECK(w.events.back().proposal->assignments.size() == 2);
}

TEST_CASE("a channel stuck in negotiating has its feedback evaluated",
          "[actor][channel][recovery]") {
  channel_world w{{"a", "b", "c"}, checker_only()};
  for (const auto& id : {"a", "b", "c"})
    w.offer(id, std::string{"o-"} + id);
  w.f.run();
  w.feedback("a", "f-a", feedback_type::accept);
  w.feedback("b", "f-b", feedback_type::accept);
  w.f.advance(120000ms);
  CHECK(w.events.back().kind == kind::proposal_feedback);
  w.f.advance(5000ms);
  REQUIRE(w.count(kind::feedback_evaluated) == 1);
  auto evaluated = w.events.end() - 3; // then round_started, demand_broadcast
  REQUIRE(evaluated->kind == kind::feedback_evaluated);
  CHECK(evaluated->reason == "stuck_in_negotiating");
  CHECK(evaluated->tally->accepts == 2);
  CHECK(evaluated->tally->decision == channel_decision::renegotiate);
  CHECK(w.events.back().kind == kind::demand_broadcast);
  CHECK(w.events.back().round == 2);
  CHECK(recoveries(w) == 1);
}

TEST_CASE("a channel stuck after 3 recoveries fails with max_recovery_attempts",
          "[actor][channel][recovery]") {
  channel_world w{{"a", "b"}, checker_only()};
  for (int attempt = 1; attempt <= 3; ++attempt) {
    w.f.advance(125000ms);
    REQUIRE(w.events.back().kind == kind::demand_broadcast);
    CHECK(w.events.back().reason == "stuck_in_collecting");
    CHECK(recoveries(w) == static_cast<std::size_t>(attempt));
    CHECK(w.events.back().agents == names{"a", "b"});
  }
  CHECK(w.received<demand_offer>("a").size() == 4);
  w.f.advance(120000ms);
  CHECK(w.events.back().kind == kind::demand_broadcast);
  w.f.advance(5000ms);
  REQUIRE(w.events.back().kind == kind::failed);
  CHECK(w.events.back().reason == "max_recovery_attempts");
  CHECK(w.events.back().at_ms - w.events.front().at_ms == 500000);
  CHECK(w.count(kind::failed) == 1);
  w.f.advance(600000ms); // it stopped: no check comes back
  CHECK(w.count(kind::failed) == 1);
  CHECK(w.received<demand_offer>("a").size() == 4);
}

TEST_CASE("the attempts count over the channel's life, across statuses",
          "[actor][channel][recovery]") {
  auto settings = checker_only();
  settings.max_recovery_attempts = 1;
  channel_world w{{"a", "b"}, settings};
  w.offer("a", "o-a");
  w.f.advance(125000ms); // collecting: b is re-asked (the one attempt)
  REQUIRE(w.events.back().reason == "stuck_in_collecting");
  w.offer("b", "o-b");
  w.f.run();
  REQUIRE(w.events.back().kind == kind::proposal_distributed);
  w.f.advance(125000ms); // negotiating, nobody answers: no attempt left
  REQUIRE(w.events.back().kind == kind::failed);
  CHECK(w.events.back().reason == "max_recovery_attempts");
  CHECK(w.count(kind::feedback_evaluated) == 0);
}

TEST_CASE("a healthy channel never triggers recovery", "[actor][channel][recovery]") {
  channel_world w{{"a", "b", "c", "d", "e"}};
  // Every answer comes 100 s after it was asked for: slow, never stuck.
  auto verdicts = parley::test::three_of_five();
  for (int round = 1; round <= 5; ++round)
    w.play_round(round, verdicts, 100000ms);
  REQUIRE(w.events.back().kind == kind::force_finalized);
  CHECK(recoveries(w) == 0);
  CHECK(w.count(kind::demand_broadcast) == 5);
  CHECK(w.received<demand_offer>("e").size() == 5);
  CHECK(w.f.seen.problems.empty());
}

} // namespace actor_actors_channel_recovery_test
