#include <catch2/catch.hpp>

#include "caf/actor_cast.hpp"
#include "caf/event_based_actor.hpp"

#include "actors/bus/interface.hpp"
#include "messages/type_ids.hpp"
#include "support/actor_fixture.hpp"

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
