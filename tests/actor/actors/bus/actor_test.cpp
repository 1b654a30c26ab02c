#include <vector>

#include <catch2/catch.hpp>

#include "caf/actor_cast.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/exit_reason.hpp"
#include "caf/send.hpp"

#include "messages/handles/bus.hpp"
#include "messages/type_ids.hpp"
#include "support/actor_fixture.hpp"

namespace actor_actors_bus_actor_test {

using namespace parley::messages;
using parley::test::actor_fixture;

namespace {

/// A subscriber that handles no event: CAF answers each one it gets with an
/// "unexpected message" error to the sender, the bus.
caf::behavior handles_nothing(caf::event_based_actor*, int) {
  return {[](int) {
  }};
}

} // namespace

TEST_CASE("a subscriber that fails an event does not stop the bus", "[actor]") {
  actor_fixture f;
  auto rude = f.sys.spawn(handles_nothing, 0);
  f.keep(rude);
  f.events.subscribe(topic_set::of(topic::error),
                     caf::actor_cast<parley::actors::subscriber_actor>(rude));
  f.run();
  problem_event x;
  x.code = error_code::invalid_vote;
  x.message = "first";
  f.send(f.events.bus(), x);
  f.run();
  x.message = "second";
  f.send(f.events.bus(), x);
  f.run();
  REQUIRE(f.seen.problems.size() == 2);
  CHECK(f.seen.problems.back().message == "second");
}

TEST_CASE("producers on the bus's node reach the subscribers directly, and one that "
          "terminates is dropped",
          "[actor]") {
  actor_fixture f;
  REQUIRE(f.events.local());
  CHECK_FALSE(f.events.with_bus(f.events.bus()).local());
  auto before = f.events.subscribers()->size();
  std::vector<caf::message> inbox;
  auto listener = f.spawn_listener(inbox);
  f.events.subscribe(topic_set::of(topic::auction_result), listener);
  REQUIRE(f.events.subscribers()->size() == before + 1);
  CHECK(f.events.subscribers()->back().topics == topic_set::of(topic::auction_result));
  f.run();
  caf::anon_send_exit(listener, caf::exit_reason::user_shutdown);
  f.run();
  CHECK(f.events.subscribers()->size() == before);
}

TEST_CASE("an interest counts the subscribers that settle apart", "[actor]") {
  interest wants;
  wants.add(topic_set::of(topic::negotiation_started), {}, 5000);
  wants.add(topic_set::of(topic::warning), {}, 1000);
  CHECK(wants.settle_ms() == 1000);
  // Only settling subscribers of a topic: it is wanted, but not at once.
  CHECK(wants.wants(topic::warning));
  CHECK_FALSE(wants.wants_at_once(topic::warning));
  CHECK_FALSE(wants.wants(topic::error));
  wants.add(topic_set::of(topic::warning), {});
  CHECK(wants.wants_at_once(topic::warning));
  CHECK(wants.settle_ms() == 1000);
}

TEST_CASE("a sink's settling is its shortest subscriber's, while it lives", "[actor]") {
  actor_fixture f;
  CHECK(f.events.settle_ms() == 0);
  std::vector<caf::message> slow_inbox;
  std::vector<caf::message> slower_inbox;
  auto slow = f.spawn_listener(slow_inbox);
  auto slower = f.spawn_listener(slower_inbox);
  f.events.subscribe(topic_set::of(topic::negotiation_started), slower, 5000);
  f.events.subscribe(topic_set::of(topic::negotiation_started), slow, 1000);
  CHECK(f.events.settle_ms() == 1000);
  f.run();
  caf::anon_send_exit(slow, caf::exit_reason::user_shutdown);
  f.run();
  CHECK(f.events.settle_ms() == 5000);
  caf::anon_send_exit(slower, caf::exit_reason::user_shutdown);
  f.run();
  CHECK(f.events.settle_ms() == 0);
  // A sink that crossed the network never settles: its producers send all.
  f.events.subscribe(topic_set::of(topic::negotiation_started),
                     f.spawn_listener(slow_inbox), 1000);
  CHECK(f.events.settle_ms() == 1000);
  CHECK(f.events.with_bus(f.events.bus()).settle_ms() == 0);
}

} // namespace actor_actors_bus_actor_test
