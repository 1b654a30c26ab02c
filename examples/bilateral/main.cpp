// bilateral: two agents negotiate in one room, using the library directly.
#include <iostream>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include "messages/json.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"

using namespace parley;

int main() {
  caf::actor_system_config cfg;
  runtime::configure(cfg, runtime::system_options{});
  caf::actor_system sys{cfg};

  // The world: a bus, a timer service, and the agents and rooms added below.
  runtime::world w{sys, config::settings{}};
  // The bus carries every lifecycle event; this scoped actor listens (it
  // takes whatever comes, so it may stand in for a typed subscriber).
  caf::scoped_actor self{sys};
  w.events().subscribe(messages::topic_set::matching("negotiation.*"),
                       caf::actor_cast<actors::subscriber_actor>(self));

  // A buyer who concedes in balanced steps, a seller who accepts quickly.
  messages::agent_spec buyer;
  buyer.id = "buyer";
  buyer.profile.role = "buyer";
  buyer.profile.preferences.max_auto_approve_amount = 200000;
  messages::agent_spec seller = buyer;
  seller.id = "seller";
  seller.profile.role = "seller";
  seller.profile.preferences.style = messages::negotiation_style::conservative;
  auto a = w.add_agent(buyer);
  auto b = w.add_agent(seller);
  auto room = w.add_rooms({w.room_spec("market", {{"buyer", a, false}, {"seller", b, false}},
                                       1)})
                  .front();

  messages::proposal offer;
  offer.amount = 42000; // £420.00: below the escrow threshold
  offer.description = "Logo design";
  self->send(a, messages::initiate_negotiation{room, "seller", offer, {}, {}});

  // Print events until the negotiation ends: `started` and the end carry the
  // whole record, `updated` what the counter changed.
  for (bool done = false; !done;) {
    self->receive([&](const messages::negotiation_event& x) {
      std::cout << nlohmann::json(x).dump() << '\n';
      done = messages::is_terminal(x);
    });
  }
  w.stop();
}
