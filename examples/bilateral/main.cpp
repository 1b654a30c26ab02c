// bilateral: two agents negotiate in one room, using the library directly.
#include <iostream>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include "actors/agent/actor.hpp"
#include "actors/bus/actor.hpp"
#include "actors/room/actor.hpp"
#include "messages/json.hpp"
#include "runtime/node.hpp"

using namespace parley;

int main() {
  caf::actor_system_config cfg;
  runtime::configure(cfg, runtime::system_options{});
  caf::actor_system sys{cfg};

  // The bus carries every lifecycle event; this scoped actor listens.
  auto bus = actors::bus::spawn_bus(sys);
  caf::scoped_actor self{sys};
  self->send(bus, messages::subscribe_atom::value, std::string{"negotiation.*"},
             caf::actor_cast<caf::actor>(self));

  // A buyer who concedes in balanced steps, a seller who accepts quickly.
  messages::agent_spec buyer;
  buyer.id = "buyer";
  buyer.profile.role = "buyer";
  buyer.profile.preferences.max_auto_approve_amount = 200000;
  messages::agent_spec seller = buyer;
  seller.id = "seller";
  seller.profile.role = "seller";
  seller.profile.preferences.style = messages::negotiation_style::conservative;
  auto max_rounds = messages::negotiation_settings{}.max_rounds;
  auto a = actors::agent::spawn_agent(sys, buyer, max_rounds, bus);
  auto b = actors::agent::spawn_agent(sys, seller, max_rounds, bus);

  messages::room_spec spec;
  spec.id = "market";
  spec.participants = {{"buyer", a}, {"seller", b}};
  spec.bus = bus;
  auto room = actors::room::spawn_room(sys, spec);

  messages::proposal offer;
  offer.amount = 42000; // £420.00: below the escrow threshold
  offer.description = "Logo design";
  self->send(a, messages::initiate_negotiation{room, "seller", offer, {}});

  // Print events until the negotiation ends.
  for (bool done = false; !done;) {
    self->receive([&](const messages::negotiation_event& x) {
      std::cout << nlohmann::json(x).dump() << '\n';
      done = messages::is_terminal(x.record.status);
    });
  }
  for (const auto& x : {a, b, room, bus})
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
}
