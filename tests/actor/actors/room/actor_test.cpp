#include "actors/room/actor.hpp"

#include <catch2/catch.hpp>

#include "caf/event_based_actor.hpp"

#include "support/bilateral_room.hpp"
#include "messages/agent_messages.hpp"

namespace actor_actors_room_actor_test {

using namespace std::chrono_literals;
using parley::messages::error_code;
using parley::messages::negotiation_event_kind;
using parley::messages::severity;
using parley::test::actor_fixture;
using parley::test::bilateral_room;

namespace {

using codes = std::vector<error_code>;

} // namespace

TEST_CASE("a room allows one active negotiation at a time", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000, "alice:1");
  r.start(20000, "alice:2");
  REQUIRE(fx.seen.codes() == codes{error_code::negotiation_in_progress});
  CHECK(fx.seen.problems[0].message == "Negotiation already in progress");
  CHECK(fx.seen.problems[0].severity == severity::error);
  CHECK(fx.seen.problems[0].room_id == "room-1");
  CHECK(fx.seen.negotiation_events.size() == 1);
  r.accept("bob", "bob:1");
  r.start(30000, "alice:3");
  CHECK(fx.seen.kinds().back() == negotiation_event_kind::started);
  CHECK(r.last().current_proposal.amount == 30000);
}

TEST_CASE("the initiator learns whether its start opened or was refused", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000, "alice:1");
  r.start(500, "alice:2");
  REQUIRE(r.alice_inbox.size() == 2);
  REQUIRE(r.alice_inbox[0].match_elements<parley::messages::negotiation_opened>());
  const auto& opened = r.alice_inbox[0].get_as<parley::messages::negotiation_opened>(0);
  CHECK(opened.message_id == "alice:1");
  CHECK(opened.negotiation_id == fx.seen.negotiation_events.front().negotiation_id);
  // The refusal the bus gets is the one the initiator gets.
  REQUIRE(r.alice_inbox[1].match_elements<parley::messages::problem_event>());
  const auto& refused = r.alice_inbox[1].get_as<parley::messages::problem_event>(0);
  CHECK(refused.code == error_code::negotiation_in_progress);
  CHECK(refused.message_id == "alice:2");
  CHECK(refused.agent_id == "alice");
  REQUIRE(fx.seen.problems.size() == 1);
  CHECK(fx.seen.problems[0].message_id == "alice:2");
}

TEST_CASE("a start naming a non-participant is refused", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  parley::messages::proposal p;
  p.amount = 100;
  fx.send(r.room, parley::messages::start_negotiation{"m:1", "alice", "zed", p, {}});
  fx.run();
  CHECK(fx.seen.codes() == codes{error_code::agent_not_found});
  CHECK(fx.seen.negotiation_events.empty());
}

TEST_CASE("a start with an invalid proposal is refused", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(-5);
  REQUIRE(fx.seen.codes() == codes{error_code::invalid_proposal});
  CHECK(fx.seen.negotiation_events.empty());
}

TEST_CASE("a forged sender is refused and changes nothing", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  r.counter("mallory", 1, "mallory:1");
  REQUIRE(fx.seen.codes() == codes{error_code::not_a_party});
  CHECK(fx.seen.problems[0].agent_id == "mallory");
  CHECK(fx.seen.kinds() ==
        std::vector<negotiation_event_kind>{negotiation_event_kind::started});
  // The negotiation goes on as if nothing happened.
  r.counter("bob", 9000, "bob:1");
  CHECK(r.last().rounds.size() == 2);
}

TEST_CASE("a party acting out of turn is refused", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  r.counter("alice", 11000, "alice:2");
  r.accept("alice", "alice:3");
  CHECK(fx.seen.codes() == codes{error_code::out_of_turn, error_code::out_of_turn});
  CHECK(r.last().rounds.size() == 1);
}

TEST_CASE("a replayed message id is ignored", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  r.counter("bob", 9000, "bob:1");
  r.counter("alice", 9500, "alice:2");
  r.counter("bob", 9000, "bob:1");
  REQUIRE(fx.seen.codes() == codes{error_code::duplicate_message});
  CHECK(fx.seen.problems[0].severity == severity::warning);
  CHECK(r.last().rounds.size() == 3);
}

TEST_CASE("messages for finished or unknown negotiations are dropped with a warning",
          "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  auto id = r.last().id;
  r.accept("bob", "bob:1");
  fx.send(r.room, parley::messages::agent_accept{"bob:2", id, "bob"});
  fx.send(r.room, parley::messages::agent_accept{"bob:3", "neg_nope", "bob"});
  fx.send(r.room, parley::messages::agent_accept{"bob:4", "current", "bob"});
  fx.run();
  CHECK(fx.seen.codes() == codes{error_code::negotiation_not_active,
                                 error_code::negotiation_not_found,
                                 error_code::negotiation_not_found});
  for (const auto& p : fx.seen.problems)
    CHECK(p.severity == severity::warning);
}

TEST_CASE("a room keeps the history of its ended negotiations", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000, "alice:1");
  r.accept("bob", "bob:1");
  r.start(20000, "alice:2");
  fx.advance(30s);
  std::vector<parley::messages::negotiation_record> history;
  fx.sys.spawn(
      [&](caf::event_based_actor* self, const parley::actors::room_actor& room) {
        self->request(room, 5s, parley::messages::history_atom::value)
            .then([&](std::vector<parley::messages::negotiation_record>& xs) {
              history = std::move(xs);
            });
      },
      r.room);
  fx.run();
  REQUIRE(history.size() == 2);
  CHECK(history[0].status == parley::messages::negotiation_status::accepted);
  CHECK(history[1].status == parley::messages::negotiation_status::expired);
  CHECK(history[0].id != history[1].id);
}

// -- resume (crash recovery) --------------------------------------------------

namespace {

/// The record of a negotiation in which Bob countered Alice's 10000 with
/// 9000: Alice's move, as a store keeps it.
parley::messages::negotiation_record countered_record() {
  actor_fixture before;
  bilateral_room r{before};
  r.start(10000, "alice:1");
  r.counter("bob", 9000, "bob:1");
  return r.last();
}

void resume(bilateral_room& r, parley::messages::negotiation_record x) {
  r.fx.send(r.room, parley::messages::resume_negotiation{std::move(x), {}});
  r.fx.run();
}

} // namespace

TEST_CASE("a resumed negotiation hands the latest offer again and goes on",
          "[actor]") {
  auto kept = countered_record();
  actor_fixture fx;
  bilateral_room r{fx};
  resume(r, kept);
  // No started event: the negotiation started before the restart.
  CHECK(fx.seen.negotiation_events.empty());
  REQUIRE(r.alice_inbox.size() == 1);
  REQUIRE(r.alice_inbox[0]
              .match_elements<parley::messages::agent_counter,
                              parley::messages::answer_terms>());
  const auto& offer = r.alice_inbox[0].get_as<parley::messages::agent_counter>(0);
  // The terms come from the kept rounds: Alice's own 10000 in round 1, Bob's
  // counter in round 2, 30 s from that counter to answer.
  const auto& terms = bilateral_room::terms_of(r.alice_inbox[0]);
  CHECK(terms.round == 2);
  CHECK(terms.my_last_amount == std::int64_t{10000});
  CHECK(terms.answer_by_ms == kept.rounds.back().timestamp + 30000);
  CHECK(offer.message_id == "bob:1");
  CHECK(offer.negotiation_id == kept.id);
  CHECK(offer.proposal.amount == 9000);
  CHECK(r.bob_inbox.empty());
  r.accept("alice", "alice:2");
  REQUIRE(fx.seen.kinds() == std::vector<negotiation_event_kind>{negotiation_event_kind::agreed});
  const auto& agreed = *fx.seen.negotiation_events.back().record;
  CHECK(agreed.id == kept.id);
  REQUIRE(agreed.rounds.size() == 3);
  CHECK(agreed.rounds[2].message_id == "alice:2");
  // The room is free again.
  r.start(20000, "alice:3");
  CHECK(fx.seen.kinds().back() == negotiation_event_kind::started);
}

TEST_CASE("a resumed negotiation ignores a move it applied before the restart",
          "[actor]") {
  auto kept = countered_record();
  actor_fixture fx;
  bilateral_room r{fx};
  resume(r, kept);
  r.counter("bob", 9000, "bob:1");
  r.counter("alice", 9500, "alice:1");
  r.counter("bob", 9000, "bob:2");
  // bob:1 is its counter again; alice:1 made the opening proposal, not a
  // counter: another move under that id.
  CHECK(fx.seen.codes() == codes{error_code::duplicate_message,
                                 error_code::message_id_reused, error_code::out_of_turn});
  r.counter("alice", 9500, "alice:2");
  CHECK(fx.seen.kinds() == std::vector<negotiation_event_kind>{negotiation_event_kind::updated});
}

TEST_CASE("a resumed negotiation whose deadline passed while down expires at once",
          "[actor]") {
  auto kept = countered_record();
  // Bob's counter is 31 s old: the 30 s round deadline passed.
  kept.rounds.back().timestamp -= 31000;
  actor_fixture fx;
  bilateral_room r{fx, {}, true};
  resume(r, kept);
  REQUIRE(fx.seen.kinds() == std::vector<negotiation_event_kind>{negotiation_event_kind::expired});
  const auto& expired = *fx.seen.negotiation_events.back().record;
  CHECK(expired.status_reason == "Round timeout — no response within 30 seconds");
  CHECK(expired.rounds.size() == 2);
  // Both parties (stand-ins that keep routes) hear of it, and no one is
  // handed the offer.
  REQUIRE(r.alice_inbox.size() == 1);
  CHECK(r.alice_inbox[0].match_elements<parley::messages::negotiation_event>());
  REQUIRE(r.bob_inbox.size() == 1);
  CHECK(r.bob_inbox[0].match_elements<parley::messages::negotiation_event>());
}

TEST_CASE("a resumed negotiation's remaining deadline fires in time", "[actor]") {
  auto kept = countered_record();
  kept.rounds.back().timestamp -= 20000;
  actor_fixture fx;
  bilateral_room r{fx};
  resume(r, kept);
  fx.advance(9000ms);
  CHECK(fx.seen.negotiation_events.empty());
  fx.advance(1000ms);
  CHECK(fx.seen.kinds() == std::vector<negotiation_event_kind>{negotiation_event_kind::expired});
}

TEST_CASE("a room refuses to resume a negotiation beside its active one", "[actor]") {
  auto kept = countered_record();
  kept.id = "0190a4c2-0000-7000-8000-0000000000ff";
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000, "alice:1");
  resume(r, kept);
  CHECK(fx.seen.codes() == codes{error_code::negotiation_in_progress});
  CHECK(r.alice_inbox.size() == 1); // only its own start's negotiation_opened
}

} // namespace actor_actors_room_actor_test
