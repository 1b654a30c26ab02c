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

#include "cli/event_printer.hpp"
#include "cluster/room_host.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"

using namespace parley;

int main() {
  runtime::system_options options;
  options.network = true;

  // The node: hosts rooms for whoever connects.
  caf::actor_system_config node_cfg;
  runtime::configure(node_cfg, options);
  caf::actor_system node{node_cfg};
  auto host = cluster::spawn_room_host(node);
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
    runtime::world w{client, config::settings{},
                     {"127.0.0.1:" + std::to_string(*port)}};
    caf::scoped_actor self{client};
    w.events().subscribe(messages::topic_set::matching("negotiation.*"),
                         caf::actor_cast<actors::subscriber_actor>(self));

    messages::agent_spec buyer;
    buyer.id = "buyer";
    buyer.profile.role = "buyer";
    messages::agent_spec seller = buyer;
    seller.id = "seller";
    seller.profile.role = "seller";
    auto a = w.add_agent(buyer);
    auto b = w.add_agent(seller);
    auto room =
        w.add_rooms({w.room_spec("remote-room",
                                 {{"buyer", a, false}, {"seller", b, false}}, 1)})
            .front();
    std::cout << "room placed on node " << to_string(room.node()) << "; agents on "
              << to_string(client.node()) << "\n";

    messages::proposal offer;
    offer.amount = 30000;
    offer.description = "Translation, 20 pages";
    self->send(a, messages::initiate_negotiation{room, "seller", offer, {}, {}});
    // The printer keeps each record up to date from the lean events.
    cli::event_printer printer{cli::output_format::timeline, std::cout, 0};
    std::int64_t start_ms = 0;
    for (bool done = false; !done;) {
      self->receive([&](const messages::negotiation_event& x) {
        if (start_ms == 0) {
          start_ms = x.at_ms();
          printer = cli::event_printer{cli::output_format::timeline, std::cout,
                                           start_ms};
        }
        printer.print(x);
        done = messages::is_terminal(x);
      });
    }
    w.stop();
  }
  caf::anon_send(host, messages::shutdown_atom::value);
  node.middleman().unpublish(host, *port);
}
