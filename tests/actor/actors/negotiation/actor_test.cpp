#include "actors/negotiation/actor.hpp"

#include <catch2/catch.hpp>

#include "support/bilateral_room.hpp"
#include "messages/agent_messages.hpp"

namespace actor_actors_negotiation_actor_test {

using namespace std::chrono_literals;
using parley::messages::negotiation_event_kind;
using parley::messages::negotiation_status;
using parley::test::actor_fixture;
using parley::test::bilateral_room;

namespace {

using kinds = std::vector<negotiation_event_kind>;

} // namespace

TEST_CASE("an opened negotiation delivers the proposal to the responder", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  REQUIRE(fx.seen.kinds() == kinds{negotiation_event_kind::started});
  REQUIRE(r.bob_inbox.size() == 1);
  REQUIRE(r.bob_inbox[0]
              .match_elements<parley::messages::agent_proposal,
                              parley::messages::answer_terms>());
  const auto& p = r.bob_inbox[0].get_as<parley::messages::agent_proposal>(0);
  CHECK(p.from_agent == "alice");
  CHECK(p.proposal.amount == 10000);
  CHECK(p.negotiation_id == r.last().id);
  // With what Bob needs to answer it and keep nothing: round 1, no offer of
  // his own yet, 30 s to answer.
  const auto& terms = bilateral_room::terms_of(r.bob_inbox[0]);
  CHECK(terms.round == 1);
  CHECK(!terms.my_last_amount);
  CHECK(terms.answer_by_ms == r.last().created_at + 30000);
  // The initiator only learns that its start opened the negotiation.
  REQUIRE(r.alice_inbox.size() == 1);
  CHECK(r.alice_inbox[0].match_elements<parley::messages::negotiation_opened>());
}

TEST_CASE("the 30 s round timeout expires a negotiation nobody answers", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start();
  fx.advance(29999ms);
  CHECK(fx.seen.kinds() == kinds{negotiation_event_kind::started});
  fx.advance(1ms);
  REQUIRE(fx.seen.kinds() ==
          kinds{negotiation_event_kind::started, negotiation_event_kind::expired});
  CHECK(r.last().status == negotiation_status::expired);
  CHECK(r.last().status_reason == "Round timeout — no response within 30 seconds");
  CHECK(r.last().updated_at - r.last().created_at == 30000);
  // Rule agents keep nothing per negotiation: no word of the expiry for them.
  CHECK(r.alice_inbox.size() == 1);
  CHECK(r.bob_inbox.size() == 1);
}

TEST_CASE("parties that keep state per negotiation learn of its expiry", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx, {}, true};
  r.start();
  fx.advance(30s);
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
  // No agent message tells them, so the expired event does.
  REQUIRE(r.alice_inbox.size() == 2);
  CHECK(r.alice_inbox.back().match_elements<parley::messages::negotiation_event>());
  REQUIRE(r.bob_inbox.size() == 2);
  CHECK(r.bob_inbox.back().match_elements<parley::messages::negotiation_event>());
}

TEST_CASE("every counter resets the round timer", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start();
  fx.advance(20s);
  r.counter("bob", 9000, "bob:1");
  fx.advance(10s); // 30 s after the start: the first deadline has moved on
  CHECK(fx.seen.kinds() ==
        kinds{negotiation_event_kind::started, negotiation_event_kind::updated});
  fx.advance(19999ms);
  CHECK(fx.seen.kinds().size() == 2);
  fx.advance(1ms); // 30 s after the counter
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
  CHECK(r.last().status_reason == "Round timeout — no response within 30 seconds");
  CHECK(fx.elapsed_ms() == 50000);
}

TEST_CASE("the 120 s total timeout expires a negotiation across several rounds",
          "[actor]") {
  actor_fixture fx;
  parley::messages::negotiation_settings settings;
  settings.max_rounds = 10;
  bilateral_room r{fx, settings};
  r.start(10000);
  const char* movers[] = {"bob", "alice", "bob", "alice"};
  for (int i = 0; i < 4; ++i) {
    fx.advance(25s);
    r.counter(movers[i], 9000 + i * 100, "move-" + std::to_string(i));
  }
  // Counters at 25, 50, 75 and 100 s: the round deadline is 130 s, the total
  // deadline 120 s.
  REQUIRE(r.last().rounds.size() == 5);
  // The last offer's answer is due by the nearer deadline, the total one;
  // Bob answers in round 5 against his own 9200.
  const auto& terms = bilateral_room::terms_of(r.bob_inbox.back());
  CHECK(terms.answer_by_ms == r.last().created_at + 120000);
  CHECK(terms.round == 5);
  CHECK(terms.my_last_amount == std::int64_t{9200});
  fx.advance(19999ms);
  CHECK(fx.seen.kinds().back() == negotiation_event_kind::updated);
  fx.advance(1ms);
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
  CHECK(r.last().status_reason == "Total timeout — negotiation exceeded 2 minutes");
  CHECK(r.last().updated_at - r.last().created_at == 120000);
  CHECK(r.last().expires_at == r.last().created_at + 120000);
}

TEST_CASE("a counter past the round limit expires the negotiation", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  r.counter("bob", 8000, "bob:1");
  r.counter("alice", 9500, "alice:2");
  r.counter("bob", 8500, "bob:2");
  r.counter("alice", 9000, "alice:3");
  REQUIRE(r.last().rounds.size() == 5);
  r.counter("bob", 8800, "bob:3");
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
  CHECK(r.last().status_reason == "Round limit reached — 5 rounds");
  // Kept as the last round (its message id is recognised), not taken up.
  REQUIRE(r.last().rounds.size() == 6);
  CHECK(r.last().rounds.back().message_id == "bob:3");
  CHECK(r.last().current_proposal.amount == 9000);
}

TEST_CASE("timers that outlive their negotiation are ignored", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  fx.advance(10s);
  r.counter("bob", 9000, "bob:1");
  r.accept("alice", "alice:2");
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::agreed);
  CHECK(r.last().final_proposal->amount == 9000);
  auto events = fx.seen.negotiation_events.size();
  // The pending timer (due at 30 s) and any later one fire into nothing.
  fx.advance(200s);
  CHECK(fx.seen.negotiation_events.size() == events);
  CHECK(fx.seen.problems.empty());
}

TEST_CASE("an accepted deal reaches the proposer as agent_accept", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  r.accept("bob", "bob:1");
  REQUIRE(r.alice_inbox.size() == 2);
  REQUIRE(r.alice_inbox[1].match_elements<parley::messages::agent_accept>());
  CHECK(r.last().status == negotiation_status::accepted);
  CHECK(r.last().convergence_score == 1.0);
}

TEST_CASE("a negotiation actor runs the room's next negotiation, deaf to the last one",
          "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000, "alice:1");
  auto first = r.last().id;
  fx.advance(10s);
  r.counter("bob", 9000, "bob:1");
  r.accept("alice", "alice:2");
  // The ended negotiation's actor opens the next one; the first one's timer
  // (due at 40 s) fires into it and is told apart.
  r.start(20000, "alice:3");
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::started);
  CHECK(r.last().id != first);
  fx.advance(25s);
  CHECK(fx.seen.kinds().back() == negotiation_event_kind::started);
  fx.advance(5s); // 30 s after the second start
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
  CHECK(r.last().updated_at - r.last().created_at == 30000);
  // A late message for the first negotiation is refused by id, not applied.
  fx.send(r.room, parley::messages::agent_accept{"bob:9", first, "bob"});
  fx.run();
  CHECK(fx.seen.codes().back() == parley::messages::error_code::negotiation_not_active);
}

TEST_CASE("a message the room relayed as the negotiation ended gets a warning",
          "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  r.accept("bob", "bob:1");
  auto ended = r.last().id;
  // The room relays a message it got before it heard of the end: the
  // negotiation's actor, back in its pool, receives it.
  auto pooled = fx.negotiations->acquire();
  fx.send(pooled, parley::messages::agent_reject{"bob:late", ended, "bob", "too late"});
  fx.run();
  REQUIRE_FALSE(fx.seen.problems.empty());
  const auto& warning = fx.seen.problems.back();
  CHECK(warning.code == parley::messages::error_code::negotiation_not_active);
  CHECK(warning.message_id == "bob:late");
  CHECK(warning.negotiation_id == ended);
  CHECK(warning.room_id == "room-1");
  CHECK(r.last().status == negotiation_status::accepted);
}

TEST_CASE("every reply's event names the message it answers", "[actor]") {
  actor_fixture fx;
  bilateral_room r{fx};
  r.start(10000);
  r.counter("bob", 9000, "bob:1");
  r.accept("alice", "alice:2");
  const auto& events = fx.seen.negotiation_events;
  REQUIRE(events.size() == 3);
  CHECK(events[0].message_id == "alice:1");
  CHECK(events[1].message_id == "bob:1");
  CHECK(events[2].message_id == "alice:2");
  // The relayed messages keep their ids too.
  const auto& countered = r.alice_inbox[1];
  REQUIRE(countered.match_elements<parley::messages::agent_counter,
                                   parley::messages::answer_terms>());
  CHECK(countered.get_as<parley::messages::agent_counter>(0).message_id == "bob:1");
  // Alice answers in round 2, against her own opening of 10000.
  CHECK(bilateral_room::terms_of(countered).round == 2);
  CHECK(bilateral_room::terms_of(countered).my_last_amount == std::int64_t{10000});
}

namespace {

/// The negotiation events a listener kept.
std::vector<parley::messages::negotiation_event>
negotiation_events_in(const std::vector<caf::message>& inbox) {
  std::vector<parley::messages::negotiation_event> result;
  for (const auto& x : inbox)
    if (x.match_elements<parley::messages::negotiation_event>())
      result.push_back(x.get_as<parley::messages::negotiation_event>(0));
  return result;
}

/// Subscribes a listener to the negotiation topics, settling after
/// `settle_ms`, before any room of the test opens.
struct settling_listener {
  settling_listener(actor_fixture& fx, std::int64_t settle_ms) {
    auto who = fx.spawn_listener(inbox);
    fx.events.subscribe(parley::messages::topic_set::matching("negotiation.*"), who,
                        settle_ms);
    fx.run();
  }

  std::vector<parley::messages::negotiation_event> events() const {
    return negotiation_events_in(inbox);
  }

  std::vector<caf::message> inbox;
};

/// A bilateral room whose bus has a subscriber settling after `settle_ms`,
/// and Alice's opening proposal of 10,000 in it.
struct settled_room {
  explicit settled_room(std::int64_t settle_ms) : store{fx, settle_ms}, r{fx} {
    r.start(10000);
  }

  actor_fixture fx;
  settling_listener store;
  bilateral_room r;
};

} // namespace

TEST_CASE("a subscriber that settles hears a quick negotiation only at its end",
          "[actor]") {
  settled_room room{1000};
  auto& [fx, store, r] = room;
  fx.advance(400ms);
  r.counter("bob", 9000, "bob:1");
  fx.advance(500ms);
  r.accept("alice", "alice:2");
  // The subscribers that hear at once heard every step.
  CHECK(fx.seen.kinds() == kinds{negotiation_event_kind::started,
                                 negotiation_event_kind::updated,
                                 negotiation_event_kind::agreed});
  auto heard = store.events();
  REQUIRE(heard.size() == 1);
  CHECK(heard[0].kind == negotiation_event_kind::agreed);
  CHECK(heard[0].unannounced);
  REQUIRE(heard[0].record);
  CHECK(heard[0].record->rounds.size() == 3);
  // The quiet's end passes with nothing left to announce.
  fx.advance(30s);
  CHECK(store.events().size() == 1);
}

TEST_CASE("a negotiation older than the settling announces itself and keeps its "
          "deadline",
          "[actor]") {
  settled_room room{1000};
  auto& [fx, store, r] = room;
  fx.advance(500ms);
  r.counter("bob", 9000, "bob:1");
  fx.advance(499ms);
  CHECK(store.events().empty());
  fx.advance(1ms);
  // At the quiet's end: one `started` with the record so far.
  auto heard = store.events();
  REQUIRE(heard.size() == 1);
  CHECK(heard[0].kind == negotiation_event_kind::started);
  REQUIRE(heard[0].record);
  CHECK(heard[0].record->rounds.size() == 2);
  CHECK(heard[0].message_id == "alice:1");
  CHECK(fx.seen.kinds().size() == 2);
  // Then every event; the round deadline is still 30 s after the counter.
  fx.advance(1000ms);
  r.counter("alice", 9500, "alice:2");
  CHECK(store.events().back().kind == negotiation_event_kind::updated);
  fx.advance(29999ms);
  CHECK(fx.seen.kinds().back() == negotiation_event_kind::updated);
  fx.advance(1ms);
  REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
  CHECK(fx.elapsed_ms() == 32000);
  heard = store.events();
  REQUIRE(heard.size() == 3);
  CHECK(heard[2].kind == negotiation_event_kind::expired);
  CHECK_FALSE(heard[2].unannounced);
  CHECK_FALSE(fx.seen.negotiation_events.back().unannounced);
}

TEST_CASE("a deadline before or at the quiet's end expires the negotiation "
          "unannounced",
          "[actor]") {
  for (std::int64_t settle_ms : {60000, 30000}) {
    INFO(settle_ms);
    settled_room room{settle_ms};
    auto& [fx, store, r] = room;
    fx.advance(29999ms);
    CHECK(store.events().empty());
    fx.advance(1ms);
    REQUIRE(fx.seen.kinds().back() == negotiation_event_kind::expired);
    CHECK(r.last().status_reason == "Round timeout — no response within 30 seconds");
    auto heard = store.events();
    REQUIRE(heard.size() == 1);
    CHECK(heard[0].kind == negotiation_event_kind::expired);
    CHECK(heard[0].unannounced);
  }
}

} // namespace actor_actors_negotiation_actor_test
