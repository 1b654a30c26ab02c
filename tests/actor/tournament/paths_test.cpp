#include "tournament/match.hpp"

#include <string>

#include <catch2/catch.hpp>

#include "actors/agent/actor.hpp"
#include "actors/room/actor.hpp"
#include "support/actor_fixture.hpp"
#include "tournament/spec.hpp"

namespace actor_tournament_paths_test {

using parley::messages::negotiation_record;
using parley::test::actor_fixture;
using parley::tournament::match_setup;
using parley::tournament::party_profile;
using parley::tournament::role;

namespace {

/// Two scenarios, one with terms, and the whole lineup.
const char* spec_text = R"({
  "scenarios": [
    {"name": "textbook_price", "max_rounds": 10,
     "domain": {"amount": {"min": 100, "max": 1100, "step": 100}},
     "buyer": {"reservation": 0.3}, "seller": {"reservation": 0.1}},
    {"name": "price_and_days", "max_rounds": 8,
     "domain": {"amount": {"min": 100, "max": 200, "step": 10}, "escrow": true,
                "terms": [{"name": "days", "values": [2, 7, 14]}]},
     "buyer": {"weights": {"amount": 0.5, "escrow": 0.1, "days": 0.4},
               "values": {"escrow": [0, 1], "days": [1, 0.5, 0]}, "reservation": 0.2},
     "seller": {"weights": {"amount": 0.8, "days": 0.2},
                "values": {"days": [0, 0.5, 1]}, "reservation": 0.2}}
  ]
})";

match_setup setup(const parley::tournament::scenario_spec& s,
                  const parley::tournament::player& buyer,
                  const parley::tournament::player& seller, role opener) {
  match_setup m;
  m.id = "neg-1";
  m.max_rounds = s.max_rounds;
  m.buyer.player = buyer;
  m.buyer.profile = party_profile(s, role::buyer, s.buyer.reservation);
  m.buyer.seed = 17;
  m.seller.player = seller;
  m.seller.profile = party_profile(s, role::seller, s.seller.reservation);
  m.seller.seed = 23;
  m.opener = opener;
  // The opener's best outcome as its opening: the lowest amount for a buyer.
  m.opening.amount = opener == role::buyer ? s.domain.amount.min : s.domain.amount.max;
  m.opening.currency = s.currency;
  m.opening.description = s.name;
  return m;
}

/// Plays `m` with agent actors in a room: the path of `parley run`.
negotiation_record play_with_actors(const match_setup& m) {
  actor_fixture fx;
  auto spawn = [&](const parley::tournament::party_setup& p, role side) {
    parley::messages::agent_spec spec;
    spec.id = parley::tournament::agent_id(side);
    spec.profile = p.profile;
    spec.brain = parley::tournament::brain_spec_for(p.player, side, p.seed);
    auto agent =
        parley::actors::agent::spawn_agent(fx.sys, spec, m.max_rounds, {fx.events});
    fx.keep(agent);
    return agent;
  };
  auto buyer = spawn(m.buyer, role::buyer);
  auto seller = spawn(m.seller, role::seller);
  parley::messages::room_spec room;
  room.id = "room-1";
  room.members = {{"buyer", buyer, false}, {"seller", seller, false}};
  room.settings.max_rounds = m.max_rounds;
  room.events = fx.events;
  auto r = parley::actors::room::spawn_room(fx.sys, std::move(room), fx.timers,
                                            fx.negotiations);
  fx.keep(r);
  auto opener = m.opener == role::buyer ? buyer : seller;
  auto responder = parley::tournament::agent_id(m.opener == role::buyer ? role::seller
                                                                        : role::buyer);
  fx.send(opener,
          parley::messages::initiate_negotiation{r, responder, m.opening, {}, {}});
  fx.run();
  return fx.seen.last_record();
}

} // namespace

TEST_CASE("every pairing of a tournament gives the same rounds through the actors") {
  auto spec = parley::tournament::parse_spec(spec_text);
  std::size_t compared = 0;
  for (const auto& s : spec.scenarios)
    for (const auto& buyer : spec.players)
      for (const auto& seller : spec.players)
        for (auto opener : {role::buyer, role::seller}) {
          CAPTURE(s.name, buyer.name, seller.name, opener == role::buyer);
          auto m = setup(s, buyer, seller, opener);
          auto direct = parley::tournament::play(m);
          auto acted = play_with_actors(m);
          CHECK(acted.status == direct.status);
          REQUIRE(acted.rounds.size() == direct.rounds.size());
          for (std::size_t i = 0; i < direct.rounds.size(); ++i) {
            CAPTURE(i);
            const auto& a = acted.rounds[i];
            const auto& d = direct.rounds[i];
            CHECK(a.round == d.round);
            CHECK(a.from_agent == d.from_agent);
            CHECK(a.action == d.action);
            CHECK(a.proposal == d.proposal);
            CHECK(a.reason == d.reason);
          }
          CHECK(acted.final_proposal == direct.final_proposal);
          ++compared;
        }
  CHECK(compared == 2 * 10 * 10 * 2);
}

} // namespace actor_tournament_paths_test
