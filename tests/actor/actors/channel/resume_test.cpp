#include "actors/channel/actor.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/channel_world.hpp"
#include "messages/channel_messages.hpp"

namespace actor_actors_channel_resume_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::test::channel_world;
using parley::test::timeouts_only;

namespace {

using kind = channel_event_kind;

std::size_t endings(const channel_world& w) {
  return w.count(kind::finalized) + w.count(kind::force_finalized) +
         w.count(kind::failed);
}

} // namespace

TEST_CASE("a channel resumed in collecting goes on where it stopped",
          "[actor][channel][resume]") {
  channel_world w{{"a", "b", "c"}};
  w.offer("a", "o-a");
  w.f.advance(60000ms);
  w.kill();
  w.offer("b", "o-b-lost"); // nobody is there to take it
  w.f.advance(30000ms);
  auto before = w.events.size();
  w.resume();
  CHECK(w.events.size() == before);                 // nothing reported again
  CHECK(w.received<demand_offer>("a").size() == 1); // nor asked again
  for (const auto& id : {"b", "c"}) {               // the missing are asked again
    auto asked = w.received<demand_offer>(id);
    REQUIRE(asked.size() == 2);
    CHECK(asked[1].round == 1);
    CHECK(asked[1].channel == w.channel); // the resumed channel takes the answer
  }
  w.offer("a", "o-a");                              // a replay from before the restart
  w.f.run();
  CHECK(w.f.seen.codes() == std::vector<error_code>{error_code::duplicate_message});
  CHECK(w.events.size() == before);
  w.offer("b", "o-b");
  w.offer("c", "o-c");
  w.f.run();
  REQUIRE(w.events.back().kind == kind::proposal_distributed);
  CHECK(w.events.back().proposal->assignments.size() == 3); // a's offer kept
  for (const auto& id : {"a", "b", "c"})
    w.feedback(id, std::string{"f-"} + id, feedback_type::accept);
  w.f.run();
  CHECK(w.events.back().kind == kind::finalized);
  CHECK(w.count(kind::created) == 1);
  CHECK(w.count(kind::demand_broadcast) == 1);
  CHECK(endings(w) == 1);
  w.f.advance(600000ms); // no timer of either life comes back to it
  CHECK(endings(w) == 1);
}

TEST_CASE("a resumed collection keeps its deadline", "[actor][channel][resume]") {
  channel_world w{{"a", "b"}, timeouts_only()};
  w.offer("a", "o-a");
  w.f.advance(100000ms);
  w.kill();
  SECTION("the timeout left is re-armed") {
    w.f.advance(50000ms);
    w.resume();
    w.f.advance(149999ms);
    CHECK(w.events.back().kind == kind::offer_submitted);
    w.f.advance(1ms); // 300 s after the collection began
    REQUIRE(w.events.back().kind == kind::proposal_distributed);
    CHECK(w.events.back().at_ms - w.events.front().at_ms == 300000);
    CHECK(w.events.back().proposal->assignments.size() == 1);
  }
  SECTION("an overdue collection closes at once") {
    w.f.advance(400000ms);
    w.resume();
    REQUIRE(w.events.back().kind == kind::proposal_distributed);
    CHECK(w.events.back().at_ms - w.events.front().at_ms == 500000);
  }
}

TEST_CASE("a channel resumed in negotiating ends exactly once",
          "[actor][channel][resume]") {
  channel_world w{{"a", "b", "c"}};
  for (const auto& id : {"a", "b", "c"})
    w.offer(id, std::string{"o-"} + id);
  w.f.run();
  w.feedback("a", "f-a", feedback_type::accept);
  w.f.advance(30000ms);
  w.kill();
  auto before = w.events.size();
  w.resume();
  CHECK(w.events.size() == before);
  CHECK(w.received<proposal_review>("a").size() == 1); // answered: not asked again
  for (const auto& id : {"b", "c"}) {
    auto asked = w.received<proposal_review>(id);
    REQUIRE(asked.size() == 2);
    REQUIRE(asked[1].your_assignment);
    CHECK(asked[1].your_assignment->agent_id == id);
    CHECK(asked[1].proposal == asked[0].proposal);
  }
  w.feedback("a", "f-a", feedback_type::withdraw); // replayed id
  w.f.run();
  CHECK(w.f.seen.codes() == std::vector<error_code>{error_code::duplicate_message});
  w.feedback("b", "f-b", feedback_type::accept);
  w.feedback("c", "f-c", feedback_type::accept);
  w.f.run();
  REQUIRE(w.events.back().kind == kind::finalized);
  const auto& evaluated = w.events[w.events.size() - 2];
  CHECK(evaluated.tally->accepts == 3); // a's accept from before counts
  CHECK(w.count(kind::feedback_evaluated) == 1);
  CHECK(endings(w) == 1);
  w.f.advance(600000ms);
  CHECK(endings(w) == 1);
}

TEST_CASE("a resumed channel keeps its round, withdrawals and recoveries",
          "[actor][channel][resume]") {
  auto settings = timeouts_only();
  settings.max_stuck_ms = 120000;
  settings.response_timeout_ms = 3600000;
  settings.max_recovery_attempts = 1;
  channel_world w{{"a", "b", "c"}, settings};
  w.play_round(1, {{"a", feedback_type::accept},
                   {"b", feedback_type::negotiate},
                   {"c", feedback_type::withdraw}});
  REQUIRE(w.events.back().kind == kind::demand_broadcast);
  CHECK(w.events.back().round == 2);
  w.offer("a", "o-a-2");
  w.f.advance(125000ms); // b is re-asked: the one recovery
  REQUIRE(w.events.back().reason == "stuck_in_collecting");
  w.kill();
  w.resume();
  w.f.advance(125000ms); // stuck again: no attempt left
  REQUIRE(w.events.back().kind == kind::failed);
  CHECK(w.events.back().reason == "max_recovery_attempts");
  CHECK(w.events.back().round == 2);
  CHECK(w.received<demand_offer>("c").size() == 1); // withdrew in round 1
  CHECK(endings(w) == 1);
}

TEST_CASE("a finished channel resumes to nothing", "[actor][channel][resume]") {
  channel_world w{{"a"}};
  w.play_round(1, {{"a", feedback_type::accept}});
  REQUIRE(w.events.back().kind == kind::finalized);
  auto before = w.events.size();
  w.resume();
  w.offer("a", "o-a-2");
  w.f.advance(600000ms);
  CHECK(w.events.size() == before);
  CHECK(w.f.seen.problems.empty());
}

} // namespace actor_actors_channel_resume_test
