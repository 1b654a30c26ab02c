// The cluster's event exchange (cluster/event_exchange.hpp) on simulated
// time, three nodes in one actor system, each with its real move relay: an
// event of one node is shown once on each other node and never on its own,
// what a node shows is never sent on (no loop), a batch sent again is shown
// once, and a peer that does not answer is let go at the timeout with a
// bounded queue, then connected again.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "caf/event_based_actor.hpp"
#include "caf/node_id.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/metrics/node_metrics.hpp"
#include "cluster/event_exchange.hpp"
#include "cluster/move_relay.hpp"
#include "messages/agent_messages.hpp"
#include "messages/cluster_event.hpp"
#include "messages/commands.hpp"
#include "messages/negotiation_record.hpp"
#include "support/actor_fixture.hpp"

namespace actor_cluster_event_exchange_test {

using namespace std::chrono_literals;
using parley::actors::event_exchange_actor;
using parley::actors::move_relay_actor;
using parley::actors::metrics::cluster_metrics;
using parley::messages::cluster_event;
using parley::messages::cluster_event_batch;
using parley::messages::peers_atom;
using parley::test::actor_fixture;

namespace {

/// What one node's streams showed: "node payload".
using shown_list = std::vector<std::string>;

/// A stand-in for CAF's middleman: `connect` answers with the relay
/// published at that port (an error for any other port).
caf::behavior
fake_connector(caf::event_based_actor* self,
               std::shared_ptr<std::map<std::uint16_t, move_relay_actor>> relays) {
  return {
      [self, relays](caf::connect_atom, const std::string&, std::uint16_t port)
          -> caf::result<caf::node_id, caf::strong_actor_ptr, std::set<std::string>> {
        auto i = relays->find(port);
        if (i == relays->end())
          return caf::sec::cannot_connect_to_node;
        return {caf::node_id{}, caf::actor_cast<caf::strong_actor_ptr>(i->second),
                self->system().message_types(i->second)};
      }};
}

/// An exchange that takes batches and never answers: a paused node. (The
/// int: CAF 0.17 cannot spawn a function of no argument but its self.)
event_exchange_actor::behavior_type silent(event_exchange_actor::pointer self, int) {
  return {
      [](cluster_event&) {},
      [self](cluster_event_batch&) {
        return self->make_response_promise<std::uint64_t>();
      },
      [](peers_atom, std::vector<std::string>&) {},
  };
}

/// The entries of `xs` from node `node`.
shown_list from(const shown_list& xs, const std::string& node) {
  shown_list out;
  for (const auto& x : xs)
    if (x.rfind(node + " ", 0) == 0)
      out.push_back(x);
  return out;
}

std::string address(std::uint16_t port) {
  return "127.0.0.1:" + std::to_string(port);
}

cluster_event local_event(const std::string& payload) {
  cluster_event x;
  x.topic = static_cast<std::uint8_t>(parley::messages::topic::negotiation_updated);
  x.negotiation_id = "n-1";
  x.payload = payload;
  return x;
}

/// Nodes of one cluster in the fixture's actor system: each an exchange
/// and the move relay published at its port.
struct cluster_fixture {
  cluster_fixture() {
    connector = f.sys.spawn(fake_connector, relays);
    f.keep(connector);
  }

  event_exchange_actor add(const std::string& node_id, std::uint16_t port,
                           std::size_t queue_limit = 4096,
                           std::size_t batch_limit = 256) {
    parley::cluster::event_exchange_options opts;
    opts.node_id = node_id;
    opts.stream = port;
    opts.connector = connector;
    opts.timeout = 2s;
    opts.queue_limit = queue_limit;
    opts.batch_limit = batch_limit;
    auto& list = shown[node_id];
    opts.show = [&list](const std::string& from, const cluster_event& x) {
      list.push_back(from + " " + x.payload);
    };
    opts.metrics = metrics[node_id] = std::make_shared<cluster_metrics>();
    auto exchange = parley::cluster::spawn_event_exchange(f.sys, std::move(opts));
    publish(exchange, port);
    f.keep(exchange);
    return exchange;
  }

  void publish(const event_exchange_actor& exchange, std::uint16_t port) {
    auto relay = parley::cluster::spawn_move_relay(f.sys, {}, {}, exchange);
    (*relays)[port] = relay;
    f.keep(relay);
  }

  actor_fixture f;
  std::shared_ptr<std::map<std::uint16_t, move_relay_actor>> relays =
      std::make_shared<std::map<std::uint16_t, move_relay_actor>>();
  caf::actor connector;
  std::map<std::string, shown_list> shown;
  std::map<std::string, std::shared_ptr<cluster_metrics>> metrics;
};

} // namespace

TEST_CASE("an event of one node is shown once on every other node, never on its own, "
          "and never sent on",
          "[actor][cluster]") {
  cluster_fixture c;
  auto a = c.add("node-a", 1);
  auto b = c.add("node-b", 2);
  auto n3 = c.add("node-c", 3);
  c.f.send(a, peers_atom::value, std::vector<std::string>{address(2), address(3)});
  c.f.send(b, peers_atom::value, std::vector<std::string>{address(1), address(3)});
  c.f.send(n3, peers_atom::value, std::vector<std::string>{address(1), address(2)});
  c.f.run();
  CHECK(c.metrics["node-a"]->event_peers.value() == 2);
  c.f.send(a, local_event("a1"));
  c.f.send(a, local_event("a2"));
  c.f.send(b, local_event("b1"));
  c.f.run();
  // Each node shows every other node's events once, each node's in their
  // order, and none of its own: nothing came back, nothing went round.
  CHECK(c.shown["node-a"] == shown_list{"node-b b1"});
  CHECK(c.shown["node-b"] == shown_list{"node-a a1", "node-a a2"});
  CHECK(from(c.shown["node-c"], "node-a") == shown_list{"node-a a1", "node-a a2"});
  CHECK(from(c.shown["node-c"], "node-b") == shown_list{"node-b b1"});
  CHECK(c.shown["node-c"].size() == 3);
  CHECK(c.metrics["node-a"]->events_sent.value() == 4);
  CHECK(c.metrics["node-c"]->events_sent.value() == 0);
  CHECK(c.metrics["node-c"]->events_received.value() == 3);
  CHECK(c.metrics["node-c"]->events_duplicates.value() == 0);
}

TEST_CASE("a batch sent again is shown once, and a node's own events are never shown",
          "[actor][cluster]") {
  cluster_fixture c;
  auto b = c.add("node-b", 2);
  auto batch = [](std::uint64_t stream, std::vector<std::uint64_t> sequences) {
    cluster_event_batch x{"node-x", stream, {}};
    for (auto n : sequences) {
      auto e = local_event("x" + std::to_string(n));
      e.sequence = n;
      x.events.push_back(std::move(e));
    }
    return x;
  };
  c.f.send(b, batch(9, {1, 2}));
  c.f.send(b, batch(9, {1, 2}));
  c.f.send(b, batch(9, {2, 3}));
  // Its own stream (2) come back through another node: dropped.
  c.f.send(b, batch(2, {1, 2, 3}));
  // An unknown topic is not shown.
  auto odd = batch(9, {4});
  odd.events[0].topic = 200;
  c.f.send(b, odd);
  c.f.run();
  CHECK(c.shown["node-b"] == shown_list{"node-x x1", "node-x x2", "node-x x3"});
  CHECK(c.metrics["node-b"]->events_duplicates.value() == 3);
}

TEST_CASE("a peer that does not answer is let go at the timeout, its queue bounded, "
          "and connected again while it is a member",
          "[actor][cluster]") {
  cluster_fixture c;
  auto a = c.add("node-a", 1, 4, 2);
  auto paused = c.f.sys.spawn(silent, 0);
  c.f.keep(paused);
  c.publish(paused, 5);
  c.f.send(a, peers_atom::value, std::vector<std::string>{address(5)});
  c.f.run();
  auto& m = *c.metrics["node-a"];
  REQUIRE(m.event_peers.value() == 1);
  for (int i = 1; i <= 10; ++i)
    c.f.send(a, local_event("a" + std::to_string(i)));
  c.f.run();
  // One batch of two in flight, at most four kept: six dropped, none sent.
  CHECK(m.events_dropped.value() == 6);
  CHECK(m.events_sent.value() == 0);
  // The batch is not acknowledged within the timeout: the peer is let go.
  c.f.advance(2100ms);
  CHECK(m.event_peers.value() == 0);
  // Still a member: connected again, and the kept events go again.
  c.f.send(a, peers_atom::value, std::vector<std::string>{address(5)});
  c.f.run();
  CHECK(m.event_peers.value() == 1);
  // No longer a member: let go with what it kept.
  c.f.send(a, peers_atom::value, std::vector<std::string>{});
  c.f.run();
  CHECK(m.event_peers.value() == 0);
  CHECK(m.events_dropped.value() == 10);
  // A node of the cluster that never answers the connection either.
  c.f.send(a, peers_atom::value, std::vector<std::string>{address(77)});
  c.f.send(a, local_event("a11"));
  c.f.run();
  CHECK(m.event_peers.value() == 0);
}

TEST_CASE("a lost peer's batch goes again through the next connection, shown once",
          "[actor][cluster]") {
  cluster_fixture c;
  auto a = c.add("node-a", 1);
  auto b = c.add("node-b", 2);
  c.f.send(a, peers_atom::value, std::vector<std::string>{address(2)});
  c.f.run();
  c.f.send(a, local_event("a1"));
  c.f.run();
  REQUIRE(c.shown["node-b"] == shown_list{"node-a a1"});
  // B's relay goes (its connection is lost): A lets it go.
  caf::anon_send_exit((*c.relays)[2], caf::exit_reason::user_shutdown);
  c.f.run();
  CHECK(c.metrics["node-a"]->event_peers.value() == 0);
  c.f.send(a, local_event("a2"));
  c.f.run();
  // Published again (the node's port answers again): A connects at the next
  // membership read and sends what waited.
  c.publish(b, 2);
  c.f.send(a, peers_atom::value, std::vector<std::string>{address(2)});
  c.f.run();
  CHECK(c.shown["node-b"] == shown_list{"node-a a1", "node-a a2"});
  CHECK(c.metrics["node-a"]->events_dropped.value() == 0);
}

} // namespace actor_cluster_event_exchange_test
