// `parley serve --cluster` over a PostgreSQL store: it joins, heartbeats
// (GET /api/v1/cluster lists it live), stops by itself once superseded, and
// leaves on SIGTERM; SQLite is refused (docs/cluster.md, "Membership"). A
// survivor takes over the open negotiations of a node killed with SIGKILL or
// paused past its lease, and the paused one commits nothing once it
// continues ("Fencing", "Ownership and take-over").

#include <algorithm>
#include <chrono>
#include <csignal>
#include <future>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "actors/store/backend.hpp"
#include "support/api_client.hpp"
#include "support/certificates.hpp"
#include "support/cluster_nodes.hpp"
#include "support/process.hpp"
#include "support/store_backends.hpp"
#include "support/temp_store.hpp"

namespace integration_serve_cluster_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::background_process;
using parley::test::becomes_live;
using parley::test::cluster_node;
using parley::test::counter;
using parley::test::negotiation_messages;
using parley::test::open_negotiation;
using parley::test::openapi_contract;
using parley::test::proposal;
using parley::test::simple_move;
namespace store = parley::actors::store;

namespace {

/// The rows of cluster prod in the store at `url`, read directly.
std::vector<store::member_row> rows_of(const std::string& url) {
  store::store_url parsed;
  REQUIRE(store::parse_store_url(url, parsed).empty());
  return store::open_backend(parsed)->members("prod");
}

/// Nodes A and B of cluster prod over `url`, both live, and a negotiation
/// of two external agents opened through A, which runs it.
struct two_nodes {
  explicit two_nodes(const std::string& url, const std::string& lease_ms = "400")
      : a{url, "node-a", {"--placement", "local"}, lease_ms},
        b{url, "node-b", {"--placement", "local"}, lease_ms} {
    REQUIRE(becomes_live(b.api, "node-a"));
    id = open_negotiation(a.api, "did:key:buyer", "did:key:seller");
  }

  cluster_node a;
  cluster_node b;
  std::string id;
};

} // namespace

TEST_CASE("serve --cluster joins, is listed live, and leaves on SIGTERM",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_join");
  if (url.empty())
    return;
  cluster_node node{url, "node-a"};
  auto& serve = node.process;
  INFO(serve.output());
  CHECK(serve.output().find(
            "parley serve: joined cluster prod as node-a, incarnation ") !=
        std::string::npos);
  CHECK(becomes_live(node.api, "node-a"));
  CHECK(node.api.get("/api/v1/cluster").body["cluster"] == "prod");
  // Every answer was checked against docs/openapi.json; api_test.cpp leaves
  // this one to this test.
  auto unseen = node.contract.unseen();
  CHECK(std::find(unseen.begin(), unseen.end(), "GET /api/v1/cluster 200") ==
        unseen.end());
  serve.signal(SIGTERM);
  CHECK(serve.wait_exit(10s) == 0);
  auto rows = rows_of(url);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].status == store::member_status::dead);
}

TEST_CASE("a second serve with the same node id supersedes the first, which stops",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_supersede");
  if (url.empty())
    return;
  cluster_node first{url, "node-a"};
  REQUIRE(becomes_live(first.api, "node-a"));
  cluster_node second{url, "node-a"};
  // Its next heartbeat (every 100 ms) is refused: it stops within a few leases.
  CHECK(first.process.wait_exit(5s) == 1);
  INFO(first.process.output());
  CHECK(first.process.output().find("lost the lease of cluster prod as node-a") !=
        std::string::npos);
  second.process.signal(SIGTERM);
  CHECK(second.process.wait_exit(10s) == 0);
}

TEST_CASE("a move sent to a node that does not run its negotiation is forwarded to the "
          "node that does",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_forward");
  if (url.empty())
    return;
  two_nodes nodes{url, "2000"};
  auto& [a, b, id] = nodes;
  INFO(a.process.output() << b.process.output());
  CHECK(b.process.output().find("parley serve: node port 127.0.0.1:") !=
        std::string::npos);
  // A runs it: B forwards the move to A's relay, and answers with A's answer.
  auto forwarded =
      b.api.post(negotiation_messages(id), counter("m2", "did:key:seller", 9000));
  REQUIRE(forwarded.status == 200);
  CHECK(forwarded.body["status"] == "countering");
  CHECK(forwarded.body["rounds"].size() == 2);
  // The same message id again, through either node: the first result, once.
  for (auto* node : {&a, &b}) {
    auto again =
        node->api.post(negotiation_messages(id), counter("m2", "did:key:seller", 9000));
    parley::test::check_error(again, 200, "E011");
  }
  // A's own refusal comes back as it is (not the seller's turn).
  parley::test::check_error(
      b.api.post(negotiation_messages(id), counter("m3", "did:key:seller", 8000)), 409,
      "E014");
  auto accepted = b.api.post(negotiation_messages(id),
                             simple_move("m3", "did:key:buyer", "accept"));
  REQUIRE(accepted.status == 200);
  CHECK(accepted.body["status"] == "accepted");
  CHECK(parley::test::round_ids(a.api, id) == parley::test::round_ids(b.api, id));
  // B forwarded all four moves, the replay too: the first answer told it
  // that A runs the negotiation (its owner cache), so it asked the store once.
  auto metrics = b.api.get("/metrics");
  CHECK_THAT(metrics.text, Catch::Contains("parley_cluster_forwarded_moves_total 4\n"));
  CHECK_THAT(metrics.text, Catch::Contains("parley_cluster_owner_lookups_total 1\n"));
  CHECK_THAT(metrics.text,
             Catch::Contains("parley_cluster_forward_failures_total 0\n"));
  CHECK_THAT(metrics.text, Catch::Contains("parley_cluster_live_members 2\n"));
  // The members list each node's address: where the others forward.
  auto cluster = b.api.get("/api/v1/cluster");
  for (const auto& m : cluster.body["members"])
    CHECK(m["node_address"].get<std::string>().rfind("127.0.0.1:", 0) == 0);
  a.process.signal(SIGTERM);
  b.process.signal(SIGTERM);
  CHECK(a.process.wait_exit(10s) == 0);
  CHECK(b.process.wait_exit(10s) == 0);
}

TEST_CASE("an agent registered through one node is known to the others, which open "
          "its negotiations and refuse its id again",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_agents");
  if (url.empty())
    return;
  // B starts first: the agents are registered after its start, through A.
  cluster_node b{url, "node-b", {}, "2000"};
  cluster_node a{url, "node-a", {}, "2000"};
  for (const auto* id : {"did:key:buyer", "did:key:seller"})
    REQUIRE(a.api.post("/api/v1/agents", parley::test::external(id)).status == 201);
  auto got = b.api.get("/api/v1/agents/did:key:seller");
  REQUIRE(got.status == 200);
  CHECK(got.body["brain"]["kind"] == "external");
  auto listed = b.api.get("/api/v1/agents");
  REQUIRE(listed.status == 200);
  CHECK(listed.body["agents"].size() == 2);
  parley::test::check_error(
      b.api.post("/api/v1/agents", parley::test::external("did:key:buyer")), 409,
      "E034");
  parley::test::check_error(b.api.get("/api/v1/agents/did:key:nobody"), 404, "E008");
  auto opened = b.api.post("/api/v1/negotiations", {{"initiator", "did:key:buyer"},
                                                    {"responder", "did:key:seller"},
                                                    {"proposal", proposal(10000)}});
  REQUIRE(opened.status == 201);
  auto id = opened.body["id"].get<std::string>();
  auto moved =
      a.api.post(negotiation_messages(id), counter("m2", "did:key:seller", 9000));
  REQUIRE(moved.status == 200);
  CHECK(moved.body["rounds"].size() == 2);
}

TEST_CASE(
    "negotiations opened through one node are spread over the live nodes by their "
    "room, and each runs where it was placed",
    "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_placement");
  if (url.empty())
    return;
  cluster_node a{url, "node-a", {}, "2000"};
  cluster_node b{url, "node-b", {}, "2000"};
  REQUIRE(becomes_live(a.api, "node-a"));
  REQUIRE(becomes_live(a.api, "node-b"));
  auto on_a = parley::test::incarnation_of(a.process.output());
  auto on_b = parley::test::incarnation_of(b.process.output());
  // Sixteen pairs' rooms over incarnations 1 and 2 (a fresh database): the
  // rendezvous ranks give each node some (6 and 10).
  std::vector<std::string> ids;
  std::vector<std::string> owner_by_id;
  std::map<std::string, int> owners;
  for (int i = 0; i < 16; ++i) {
    auto n = std::to_string(i);
    ids.push_back(open_negotiation(a.api, "did:key:buyer-" + n, "did:key:seller-" + n));
    owner_by_id.push_back(parley::test::owner_of(url, ids.back()));
    ++owners[owner_by_id.back()];
  }
  CHECK(owners[on_a] + owners[on_b] == 16);
  CHECK(owners[on_a] > 0);
  CHECK(owners[on_b] > 0);
  // A forwarded the openings placed on B; a move through either node is
  // committed by the node that runs it.
  auto metrics = a.api.get("/metrics");
  CHECK_THAT(metrics.text, Catch::Contains("parley_cluster_forwarded_moves_total " +
                                           std::to_string(owners[on_b]) + "\n"));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto& via = i % 2 == 0 ? a.api : b.api;
    auto moved = via.post(negotiation_messages(ids[i]),
                          counter("m2", "did:key:seller-" + std::to_string(i), 9000));
    INFO(moved.body.dump());
    REQUIRE(moved.status == 200);
    CHECK(moved.body["rounds"].size() == 2);
  }
  // A learnt where each opening it forwarded runs from the answer (its owner
  // cache): it asked the store for no owner. B asked for each negotiation of
  // A's that it moved, once.
  int moved_on_a_through_b = 0;
  for (std::size_t i = 1; i < ids.size(); i += 2)
    moved_on_a_through_b += owner_by_id[i] == on_a ? 1 : 0;
  CHECK_THAT(a.api.get("/metrics").text,
             Catch::Contains("parley_cluster_owner_lookups_total 0\n"));
  CHECK_THAT(b.api.get("/metrics").text,
             Catch::Contains("parley_cluster_owner_lookups_total " +
                             std::to_string(moved_on_a_through_b) + "\n"));
  for (std::size_t i = 1; i < ids.size(); i += 2) {
    if (owner_by_id[i] != on_a)
      continue;
    auto again =
        b.api.post(negotiation_messages(ids[i]),
                   simple_move("m3", "did:key:buyer-" + std::to_string(i), "accept"));
    REQUIRE(again.status == 200);
    CHECK(again.body["status"] == "accepted");
  }
  CHECK_THAT(b.api.get("/metrics").text,
             Catch::Contains("parley_cluster_owner_lookups_total " +
                             std::to_string(moved_on_a_through_b) + "\n"));
}

TEST_CASE("three nodes with mutual TLS forward moves to the node that runs them",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_tls");
  if (url.empty())
    return;
  parley::test::certificates certs{{"node-a", "node-b", "node-c"}, {}};
  cluster_node a{url, "node-a", certs.flags("cluster", "node-a"), "2000"};
  cluster_node b{url, "node-b", certs.flags("cluster", "node-b"), "2000"};
  cluster_node c{url, "node-c", certs.flags("cluster", "node-c"), "2000"};
  INFO(a.process.output() << b.process.output() << c.process.output());
  CHECK(c.process.output().find("(mutual TLS, at most 64 connections)") !=
        std::string::npos);
  REQUIRE(becomes_live(c.api, "node-a"));
  auto id = open_negotiation(a.api, "did:key:buyer", "did:key:seller");
  // Through B, then C, then A itself: each answered by A, in turn.
  auto via_b =
      b.api.post(negotiation_messages(id), counter("m2", "did:key:seller", 9000));
  INFO(via_b.body.dump());
  REQUIRE(via_b.status == 200);
  auto via_c =
      c.api.post(negotiation_messages(id), counter("m3", "did:key:buyer", 9500));
  INFO(via_c.body.dump());
  REQUIRE(via_c.status == 200);
  auto accepted = a.api.post(negotiation_messages(id),
                             simple_move("m4", "did:key:seller", "accept"));
  REQUIRE(accepted.status == 200);
  CHECK(accepted.body["status"] == "accepted");
  auto rounds = parley::test::round_ids(c.api, id);
  CHECK(std::vector<std::string>(rounds.begin() + 1, rounds.end()) ==
        std::vector<std::string>{"m2", "m3", "m4"});
}

TEST_CASE("serve refuses a node port off loopback without TLS", "[integration]") {
  background_process serve{{PARLEY_BINARY, "serve", "--port", "0", "--store",
                            "postgresql://parley@127.0.0.1:1/none", "--cluster", "prod",
                            "--node-port", "0", "--node-host", "0.0.0.0"}};
  CHECK(serve.wait_exit(10s) == 2);
  INFO(serve.output());
  CHECK(serve.output().find("E019 refusing to open the node port on 0.0.0.0 without "
                            "TLS") != std::string::npos);
}

TEST_CASE("a node killed with SIGKILL: a survivor takes over its open negotiation, "
          "which goes on through it",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_kill");
  if (url.empty())
    return;
  two_nodes nodes{url};
  auto& [a, b, id] = nodes;
  // A runs it; B forwards a move to it.
  REQUIRE(b.api.post(negotiation_messages(id), counter("m2", "did:key:seller", 9000))
              .status == 200);

  a.process.signal(SIGKILL);
  REQUIRE(a.process.wait_exit(10s) == 128 + SIGKILL);
  auto start = std::chrono::steady_clock::now();
  // Its session ended: B takes it over at its next heartbeat (every 100 ms),
  // not after the lease.
  auto moved = parley::test::until_2xx(10s, b.api, negotiation_messages(id),
                                       counter("m3", "did:key:buyer", 9500));
  auto took = std::chrono::steady_clock::now() - start;
  INFO(b.process.output());
  REQUIRE(moved.status == 200);
  CHECK(took < 5s);
  CHECK(b.process.output().find("parley serve: took over incarnation ") !=
        std::string::npos);
  auto metrics = b.api.get("/metrics");
  CHECK_THAT(metrics.text, Catch::Contains("parley_cluster_takeovers_total 1\n"));
  CHECK_THAT(metrics.text,
             Catch::Contains("parley_cluster_taken_negotiations_total 1\n"));
  auto accepted = b.api.post(negotiation_messages(id),
                             simple_move("m4", "did:key:seller", "accept"));
  REQUIRE(accepted.status == 200);
  CHECK(accepted.body["status"] == "accepted");
  // Every acknowledged move once, in order: nothing lost, nothing twice.
  CHECK(parley::test::round_ids(b.api, id) ==
        std::vector<std::string>{parley::test::round_ids(b.api, id).front(), "m2", "m3",
                                 "m4"});
  b.process.signal(SIGTERM);
  CHECK(b.process.wait_exit(10s) == 0);
}

TEST_CASE("a node paused past its lease is taken over, commits nothing once it "
          "continues, and stops",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("serve_cluster_pause");
  if (url.empty())
    return;
  two_nodes nodes{url};
  auto& [a, b, id] = nodes;
  a.process.signal(SIGSTOP);
  // A move sent to A while it is paused waits in its socket.
  auto late =
      std::async(std::launch::async, [port = a.port, path = negotiation_messages(id)] {
        openapi_contract contract;
        api_client again{port, contract};
        return again.post(path, counter("late", "did:key:seller", 8000));
      });
  // Its lease (400 ms) lapses: B takes the negotiation over.
  auto moved = parley::test::until_2xx(10s, b.api, negotiation_messages(id),
                                       counter("m2", "did:key:seller", 9000));
  INFO(b.process.output());
  REQUIRE(moved.status == 200);
  a.process.signal(SIGCONT);
  // A's heartbeat is refused: it stops by itself; the move it held is not
  // acknowledged (its commit is refused, or it is never answered).
  CHECK(a.process.wait_exit(10s) == 1);
  INFO(a.process.output());
  CHECK(a.process.output().find("lost the lease of cluster prod as node-a") !=
        std::string::npos);
  CHECK(late.get().status / 100 != 2);
  auto rounds = parley::test::round_ids(b.api, id);
  CHECK(std::find(rounds.begin(), rounds.end(), "late") == rounds.end());
  CHECK(rounds.back() == "m2");
  b.process.signal(SIGTERM);
  CHECK(b.process.wait_exit(10s) == 0);
}

TEST_CASE("serve --cluster refuses an SQLite store", "[integration]") {
  parley::test::temp_store db;
  background_process serve{{PARLEY_BINARY, "serve", "--port", "0", "--store", db.path(),
                            "--create-store", "--cluster", "prod"}};
  CHECK(serve.wait_exit(10s) == 2);
  INFO(serve.output());
  CHECK(serve.output().find("E028 --cluster needs a PostgreSQL store") !=
        std::string::npos);
}

TEST_CASE("GET /api/v1/cluster is 404 without --cluster", "[integration]") {
  parley::test::serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  parley::test::check_error(api.get("/api/v1/cluster"), 404, "E032");
}

} // namespace integration_serve_cluster_test
