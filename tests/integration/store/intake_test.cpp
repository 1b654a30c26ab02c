// The store's intake on a real (not simulated) scheduler: it keeps the
// negotiation events in order, tells its store once per batch, and hands
// them over, keeping the next batch in the spare vector it is given.

#include <chrono>
#include <vector>

#include <catch2/catch.hpp>

#include "caf/scoped_actor.hpp"

#include "actors/store/intake.hpp"
#include "support/negotiation_events.hpp"
#include "support/store_fixture.hpp"

namespace integration_store_intake_test {

using namespace parley::test;
namespace msg = parley::messages;
using namespace std::chrono_literals;

namespace {

/// Waits (at most 5 s) for the intake to tell `self` of events.
bool told(caf::scoped_actor& self) {
  bool heard = false;
  self->receive([&](msg::events_atom) { heard = true; }, caf::after(5s) >> [] {});
  return heard;
}

/// Takes what `intake` kept, giving it `spare`.
std::vector<msg::negotiation_event>
take(caf::scoped_actor& self, const parley::actors::intake_actor& intake,
     std::vector<msg::negotiation_event> spare = {}) {
  std::vector<msg::negotiation_event> out;
  self->request(intake, 5s, msg::events_atom::value, std::move(spare))
      .receive([&](std::vector<msg::negotiation_event>& xs) { out = std::move(xs); },
               [](caf::error&) { FAIL("the intake did not answer"); });
  return out;
}

} // namespace

TEST_CASE("the intake keeps events in order and tells its store once per batch",
          "[integration]") {
  caf::actor_system_config cfg;
  caf::actor_system sys{with_parley_types(cfg)};
  caf::scoped_actor self{sys};
  auto intake = parley::actors::store::spawn_intake(
      sys, caf::actor_cast<parley::actors::store_actor>(self));
  const std::string id = "0190a4c2-0000-7000-8000-000000000001";
  self->send(intake, sample_started(id));
  self->send(intake, sample_updated(id, 2, 8500));
  REQUIRE(told(self));
  self->send(intake, sample_updated(id, 3, 9250));
  // One notice for the batch, however many events join it.
  auto first = take(self, intake);
  REQUIRE(first.size() == 3);
  CHECK(first[0].kind == msg::negotiation_event_kind::started);
  CHECK(first[1].round->round == 2);
  CHECK(first[2].round->round == 3);
  self->receive([](msg::events_atom) { FAIL("a second notice for one batch"); },
                caf::after(std::chrono::milliseconds(50)) >> [] {});
  // The next event starts the next batch. The spare a take gives keeps the
  // batch after it: its memory comes back.
  self->send(intake, sample_agreed(id));
  REQUIRE(told(self));
  first.clear();
  first.reserve(64);
  auto capacity = first.capacity();
  auto second = take(self, intake, std::move(first));
  REQUIRE(second.size() == 1);
  CHECK(second[0].kind == msg::negotiation_event_kind::agreed);
  self->send(intake, sample_started(id));
  REQUIRE(told(self));
  auto third = take(self, intake);
  REQUIRE(third.size() == 1);
  CHECK(third.capacity() == capacity);
  CHECK(take(self, intake).empty());
  self->send_exit(intake, caf::exit_reason::user_shutdown);
}

} // namespace integration_store_intake_test
