// The cluster's events (docs/cluster.md, "The cluster's events"): the event
// stream of any `parley serve --cluster` node shows every node's events,
// each once and naming its node; a node's bus (gateway, store, metrics)
// hears only its own; a node that joins later shows the others' events from
// then on, and a node killed with SIGKILL stops nobody.

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/api_client.hpp"
#include "support/cluster_nodes.hpp"
#include "support/sse_client.hpp"

namespace integration_cluster_events_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::becomes_live;
using parley::test::cluster_node;
using parley::test::counter;
using parley::test::negotiation_messages;
using parley::test::open_negotiation;
using parley::test::simple_move;
using parley::test::sse_client;
using parley::test::sse_event;

namespace {

using event_list = std::vector<sse_event>;

/// The events of negotiation `id` in `xs`: "type node" each, in order.
std::vector<std::string> of_negotiation(const event_list& xs, const std::string& id) {
  std::vector<std::string> out;
  for (const auto& x : xs) {
    const auto& p = x.data["payload"];
    auto nid = p.value("negotiation_id", std::string{});
    if (nid.empty() && p.contains("negotiation"))
      nid = p["negotiation"].value("id", std::string{});
    if (nid == id)
      out.push_back(x.type + " " + x.data.value("node", std::string{"-"}));
  }
  return out;
}

/// Until `xs` has the event `type` of negotiation `id`.
std::function<bool(const event_list&)> having(const std::string& id,
                                              const std::string& type) {
  return [id, type](const event_list& xs) {
    for (const auto& e : of_negotiation(xs, id))
      if (e.rfind(type + " ", 0) == 0)
        return true;
    return false;
  };
}

const std::string stream_path = "/api/v1/events/stream?topics=negotiation";

} // namespace

TEST_CASE("every node's event stream shows the whole cluster's events, each once and "
          "naming its node",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("cluster_events");
  if (url.empty())
    return;
  // Local placement: a negotiation runs on the node it was opened through.
  cluster_node a{url, "node-a", {"--placement", "local"}, "2000"};
  cluster_node b{url, "node-b", {"--placement", "local"}, "2000"};
  INFO(a.process.output() << b.process.output());
  REQUIRE(becomes_live(a.api, "node-b"));
  REQUIRE(becomes_live(b.api, "node-a"));
  REQUIRE(parley::test::sends_events_to(a.api, 1));
  REQUIRE(parley::test::sends_events_to(b.api, 1));
  sse_client on_a{a.port, stream_path};
  sse_client on_b{b.port, stream_path};
  REQUIRE(on_a.headers().find("200 OK") != std::string::npos);
  REQUIRE(on_b.headers().find("200 OK") != std::string::npos);

  // Opened and moved through B, run by B.
  auto id = open_negotiation(b.api, "did:key:buyer", "did:key:seller");
  REQUIRE(parley::test::owner_of(url, id) ==
          parley::test::incarnation_of(b.process.output()));
  REQUIRE(b.api.post(negotiation_messages(id), counter("m2", "did:key:seller", 9000))
              .status == 200);
  REQUIRE(
      b.api.post(negotiation_messages(id), simple_move("m3", "did:key:buyer", "accept"))
          .status == 200);
  REQUIRE(on_b.read_until(having(id, "negotiation.agreed")));
  REQUIRE(on_a.read_until(having(id, "negotiation.agreed")));
  // Then one more event of B: B's events reach A in their order, so once it
  // is there, every event of B before it that A will ever show is there too.
  auto sentinel = open_negotiation(b.api, "did:key:buyer-2", "did:key:seller-2");
  REQUIRE(on_a.read_until(having(sentinel, "negotiation.started")));
  const std::vector<std::string> expected{"negotiation.started node-b",
                                          "negotiation.updated node-b",
                                          "negotiation.agreed node-b"};
  CHECK(of_negotiation(on_b.events(), id) == expected);
  CHECK(of_negotiation(on_a.events(), id) == expected);
  // No frame twice: A's ids count 1, 2, ... without a repeat.
  for (std::size_t i = 0; i < on_a.events().size(); ++i)
    CHECK(on_a.events()[i].id == std::to_string(i + 1));
  // A's bus heard none of it: its gateway, store and metrics act on its own
  // events only.
  CHECK(parley::test::metric_value(
            a.api, "parley_events_total{topic=\"negotiation.started\"}") == 0);
  CHECK(parley::test::metric_value(
            a.api, "parley_events_total{topic=\"negotiation.agreed\"}") == 0);
  CHECK(parley::test::metric_value(
            b.api, "parley_events_total{topic=\"negotiation.agreed\"}") == 1);
  CHECK(parley::test::metric_value(a.api, "parley_cluster_events_received_total") >= 4);
  CHECK(parley::test::metric_value(b.api, "parley_cluster_events_received_total") == 0);
  CHECK(parley::test::metric_value(a.api, "parley_cluster_events_duplicates_total") ==
        0);

  // The other way: A's negotiation on B's stream, and A's own stream names A.
  auto on_a_side = open_negotiation(a.api, "did:key:buyer-3", "did:key:seller-3");
  REQUIRE(on_b.read_until(having(on_a_side, "negotiation.started")));
  REQUIRE(on_a.read_until(having(on_a_side, "negotiation.started")));
  CHECK(of_negotiation(on_b.events(), on_a_side) ==
        std::vector<std::string>{"negotiation.started node-a"});
  CHECK(of_negotiation(on_a.events(), on_a_side) ==
        std::vector<std::string>{"negotiation.started node-a"});

  // C joins later: it shows the others' events from then on.
  cluster_node c{url, "node-c", {"--placement", "local"}, "2000"};
  INFO(c.process.output());
  REQUIRE(parley::test::sends_events_to(c.api, 2));
  REQUIRE(parley::test::sends_events_to(b.api, 2));
  sse_client on_c{c.port, stream_path};
  REQUIRE(on_c.headers().find("200 OK") != std::string::npos);
  auto later = open_negotiation(b.api, "did:key:buyer-4", "did:key:seller-4");
  REQUIRE(on_c.read_until(having(later, "negotiation.started")));
  CHECK(of_negotiation(on_c.events(), later) ==
        std::vector<std::string>{"negotiation.started node-b"});
  CHECK(of_negotiation(on_c.events(), id).empty());

  // C killed: B goes on, and A still shows B's events.
  c.process.signal(SIGKILL);
  REQUIRE(c.process.wait_exit(10s) == 128 + SIGKILL);
  auto after_kill = open_negotiation(b.api, "did:key:buyer-5", "did:key:seller-5");
  REQUIRE(on_a.read_until(having(after_kill, "negotiation.started")));
  CHECK(of_negotiation(on_a.events(), after_kill) ==
        std::vector<std::string>{"negotiation.started node-b"});
  // And it stops exchanging with C once C's death is read.
  CHECK(parley::test::sends_events_to(b.api, 1));
  a.process.signal(SIGTERM);
  b.process.signal(SIGTERM);
  CHECK(a.process.wait_exit(10s) == 0);
  CHECK(b.process.wait_exit(10s) == 0);
}

TEST_CASE("a single node's event stream names no node", "[integration]") {
  parley::test::serve_process serve;
  parley::test::openapi_contract contract;
  api_client api{serve.port, contract};
  sse_client stream{serve.port, stream_path};
  REQUIRE(stream.headers().find("200 OK") != std::string::npos);
  auto id = open_negotiation(api, "did:key:buyer", "did:key:seller");
  REQUIRE(stream.read_until(having(id, "negotiation.started")));
  CHECK(of_negotiation(stream.events(), id) ==
        std::vector<std::string>{"negotiation.started -"});
}

} // namespace integration_cluster_events_test
