// `parley serve --cluster` over a PostgreSQL store: it joins, heartbeats
// (GET /api/v1/cluster lists it live), stops by itself once superseded, and
// leaves on SIGTERM; SQLite is refused (docs/cluster.md, "Membership").

#include <algorithm>
#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "actors/store/backend.hpp"
#include "support/api_client.hpp"
#include "support/process.hpp"
#include "support/store_backends.hpp"
#include "support/temp_store.hpp"

namespace integration_serve_cluster_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::background_process;
using parley::test::openapi_contract;
namespace store = parley::actors::store;

namespace {

/// `parley serve` over `url` in cluster prod as `node_id`, a 400 ms lease.
std::vector<std::string> serve_argv(const std::string& url,
                                    const std::string& node_id) {
  return {PARLEY_BINARY, "serve",          "--port",    "0",    "--store",
          url,           "--create-store", "--cluster", "prod", "--node-id",
          node_id,       "--lease-ms",     "400"};
}

/// The member `node_id` of `body` (GET /api/v1/cluster) with the highest
/// incarnation; null when none.
json newest(const json& body, const std::string& node_id) {
  json found;
  for (const auto& m : body["members"])
    if (m["node_id"] == node_id &&
        (found.is_null() || m["incarnation"].get<std::int64_t>() >
                                found["incarnation"].get<std::int64_t>()))
      found = m;
  return found;
}

/// Polls GET /api/v1/cluster until `node_id` reads live, at most 10 s.
bool becomes_live(api_client& api, const std::string& node_id) {
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    auto a = api.get("/api/v1/cluster");
    REQUIRE(a.status == 200);
    if (auto m = newest(a.body, node_id); !m.is_null() && m["status"] == "live")
      return true;
  }
  return false;
}

/// The rows of cluster prod in the store at `url`, read directly.
std::vector<store::member_row> rows_of(const std::string& url) {
  store::store_url parsed;
  REQUIRE(store::parse_store_url(url, parsed).empty());
  return store::open_backend(parsed)->members("prod");
}

/// A fresh database in the shared PostgreSQL cluster; empty (after a
/// warning, once) without the server's binaries.
std::string fresh_database(const std::string& name) {
  auto* pg = parley::test::shared_postgres();
  return pg == nullptr ? std::string{} : pg->fresh_database(name);
}

/// A `parley serve` of cluster prod over `url`, and a client of its API
/// once it serves.
struct cluster_node {
  cluster_node(const std::string& url, const std::string& node_id)
      : process(serve_argv(url, node_id)),
        api(parley::test::wait_until_serving(process), contract) {}

  background_process process;
  openapi_contract contract;
  api_client api;
};

} // namespace

TEST_CASE("serve --cluster joins, is listed live, and leaves on SIGTERM",
          "[integration][postgresql]") {
  auto url = fresh_database("serve_cluster_join");
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
  auto url = fresh_database("serve_cluster_supersede");
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
