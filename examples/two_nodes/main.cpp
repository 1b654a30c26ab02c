// two_nodes: a room on one node, its agents on another, over loopback.
//
// Two actor systems in one process stand for two machines: the "node" system
// publishes a room host (what `parley node` runs), the "client" system places
// a room there (what `--remote` does) and keeps the agents and the bus. The
// messages are the same as in a single process; CAF's middleman carries them.
#include <iostream>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/io/middleman.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include "actors/agent/actor.hpp"
#include "actors/bus/actor.hpp"
#include "messages/type_ids.hpp"
#include "runtime/cluster.hpp"
#include "runtime/event_printer.hpp"
#include "runtime/node.hpp"
#include "runtime/room_host.hpp"

using namespace parley;

int main() {
  runtime::system_options options;
  options.network = true;

  // The node: hosts rooms for whoever connects.
  caf::actor_system_config node_cfg;
  runtime::configure(node_cfg, options);
  caf::actor_system node{node_cfg};
  auto host = runtime::spawn_room_host(node);
  auto port = node.middleman().publish(host, 0, "127.0.0.1", true);
  if (!port) {
    std::cerr << "cannot listen: " << node.render(port.error()) << "\n";
    return 1;
  }
  std::cout << "node listening on 127.0.0.1:" << *port << "\n";

  {
    // The client: agents, bus and a listener here; the room over there.
    caf::actor_system_config client_cfg;
    runtime::configure(client_cfg, options);
    caf::actor_system client{client_cfg};
    auto bus = actors::bus::spawn_bus(client);
    caf::scoped_actor self{client};
    self->send(bus, messages::subscribe_atom::value, std::string{"negotiation.*"},
               caf::actor_cast<caf::actor>(self));

    messages::agent_spec buyer;
    buyer.id = "buyer";
    buyer.profile.role = "buyer";
    messages::agent_spec seller = buyer;
    seller.id = "seller";
    seller.profile.role = "seller";
    auto rounds = messages::negotiation_settings{}.max_rounds;
    auto a = actors::agent::spawn_agent(client, buyer, rounds, bus);
    auto b = actors::agent::spawn_agent(client, seller, rounds, bus);

    runtime::cluster cluster{client, {"127.0.0.1:" + std::to_string(*port)}, bus};
    messages::room_spec spec;
    spec.id = "remote-room";
    spec.participants = {{"buyer", a}, {"seller", b}};
    spec.bus = bus;
    std::vector<messages::room_spec> specs{spec};
    auto room = cluster.spawn_rooms(std::move(specs)).front();
    std::cout << "room placed on node " << to_string(room.node()) << "; agents on "
              << to_string(client.node()) << "\n";

    messages::proposal offer;
    offer.amount = 30000;
    offer.description = "Translation, 20 pages";
    self->send(a, messages::initiate_negotiation{room, "seller", offer, {}});
    std::int64_t start_ms = 0;
    for (bool done = false; !done;) {
      self->receive([&](const messages::negotiation_event& x) {
        if (start_ms == 0)
          start_ms = x.at_ms;
        std::cout << runtime::timeline_line(x, start_ms) << "\n";
        done = messages::is_terminal(x.record.status);
      });
    }
    for (const auto& x : {a, b, bus})
      caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  }
  caf::anon_send(host, messages::shutdown_atom::value);
  node.middleman().unpublish(host, *port);
}
