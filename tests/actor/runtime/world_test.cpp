#include "runtime/world.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/agent/brain.hpp"
#include "messages/type_ids.hpp"
#include "support/actor_fixture.hpp"

namespace actor_runtime_world_test {

using parley::actors::agent::brain;
using parley::actors::agent::offer_context;
using parley::messages::decision;
using parley::messages::negotiation_event;
using parley::messages::negotiation_status;
using parley::messages::reply_action;
using parley::test::actor_fixture;

namespace {

/// A brain of the test's own: accepts an offer of at least `price`,
/// otherwise counters with `price`; keeps every offer it was asked about in
/// `seen` (safe: the test coordinator runs every actor on the test's thread).
class holds_price final : public brain {
public:
  holds_price(std::int64_t price, std::vector<offer_context>& seen)
      : price_(price), seen_(&seen) {}

  std::optional<decision> decide(const offer_context& offer) override {
    seen_->push_back(offer);
    decision d;
    if (offer.incoming.amount >= price_) {
      d.action = reply_action::accept;
      return d;
    }
    d.action = reply_action::counter;
    d.proposal = offer.incoming;
    d.proposal.amount = price_;
    d.reason = "holding the price";
    return d;
  }

private:
  std::int64_t price_;
  std::vector<offer_context>* seen_;
};

} // namespace

TEST_CASE("a world runs an agent with the application's own brain against a rule agent",
          "[actor]") {
  actor_fixture f;
  parley::config::settings settings;
  settings.negotiation.max_rounds = 4;
  parley::runtime::world w{f.sys, settings};
  std::vector<caf::message> events;
  w.events().subscribe(parley::messages::topic_set::matching("negotiation.*"),
                       f.spawn_listener(events));

  std::vector<offer_context> seen;
  auto seller = w.add_agent("seller", std::make_unique<holds_price>(90000, seen));
  parley::messages::agent_spec buyer_spec;
  buyer_spec.id = "buyer";
  buyer_spec.profile.role = "client";
  buyer_spec.profile.preferences.max_auto_approve_amount = 200000;
  buyer_spec.profile.preferences.escrow_preference =
      parley::messages::escrow_preference::never;
  auto buyer = w.add_agent(buyer_spec);
  auto spec =
      w.room_spec("market", {{"buyer", buyer, false}, {"seller", seller, false}}, 1);
  auto room = w.add_rooms({std::move(spec)}).front();

  parley::messages::proposal opening;
  opening.amount = 80000;
  opening.description = "Logo design";
  f.send(buyer,
         parley::messages::initiate_negotiation{room, "seller", opening, {}, {}});
  f.run();

  // The buyer opens at 80,000, the brain holds at 90,000, the buyer moves to
  // 84,000 (its 40 % concession), the brain holds again, and the buyer, at
  // the round limit the world set, accepts.
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].round == 1);
  CHECK(seen[0].incoming.amount == 80000);
  CHECK_FALSE(seen[0].my_last_amount);
  CHECK(seen[1].round == 3);
  CHECK(seen[1].incoming.amount == 84000);
  CHECK(seen[1].my_last_amount == std::optional<std::int64_t>{90000});
  for (const auto& offer : seen)
    CHECK(offer.max_rounds == 4);
  REQUIRE_FALSE(events.empty());
  REQUIRE(events.back().match_elements<negotiation_event>());
  const auto& last = events.back().get_as<negotiation_event>(0);
  REQUIRE(last.record);
  CHECK(last.record->status == negotiation_status::accepted);
  REQUIRE(last.record->final_proposal);
  CHECK(last.record->final_proposal->amount == 90000);
  CHECK(last.record->rounds.size() == 5); // four offers and the accept
  w.stop();
  f.run();
}

TEST_CASE("a world refuses an agent without a brain", "[actor]") {
  actor_fixture f;
  parley::runtime::world w{f.sys, parley::config::settings{}};
  CHECK_THROWS_AS(w.add_agent("nobody", std::unique_ptr<brain>{}),
                  std::invalid_argument);
  w.stop();
  f.run();
}

} // namespace actor_runtime_world_test
