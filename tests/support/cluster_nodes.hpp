#pragma once

// `parley serve --cluster` processes over one PostgreSQL store, for the
// cluster's integration tests (docs/cluster.md).

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/api_client.hpp"
#include "support/store_backends.hpp"
#include "support/process.hpp"

namespace parley::test {

/// `parley serve` over `url` in cluster prod as `node_id`, a lease of
/// `lease_ms` (400 ms for the tests that wait for one to lapse; the others
/// take longer ones, which a loaded machine's heartbeats keep), its node
/// port on any free port of loopback, with `extra` flags.
inline std::vector<std::string>
cluster_serve_argv(const std::string& url, const std::string& node_id,
                   const std::vector<std::string>& extra, const std::string& lease_ms) {
  std::vector<std::string> argv{
      PARLEY_BINARY, "serve",          "--port",    "0",           "--store",
      url,           "--create-store", "--cluster", "prod",        "--node-id",
      node_id,       "--lease-ms",     lease_ms,    "--node-port", "0"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

/// The member `node_id` of `body` (GET /api/v1/cluster) with the highest
/// incarnation; null when none.
inline nlohmann::json newest_member(const nlohmann::json& body,
                                    const std::string& node_id) {
  nlohmann::json found;
  for (const auto& m : body["members"])
    if (m["node_id"] == node_id &&
        (found.is_null() || m["incarnation"].get<std::int64_t>() >
                                found["incarnation"].get<std::int64_t>()))
      found = m;
  return found;
}

/// Polls GET /api/v1/cluster until `node_id` reads live, at most 10 s.
inline bool becomes_live(api_client& api, const std::string& node_id) {
  using namespace std::chrono_literals;
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    auto a = api.get("/api/v1/cluster");
    REQUIRE(a.status == 200);
    if (auto m = newest_member(a.body, node_id); !m.is_null() && m["status"] == "live")
      return true;
  }
  return false;
}

/// The value of the metric line `name` (with its labels) in `api`'s
/// /metrics; -1 when it is not there.
inline double metric_value(api_client& api, const std::string& name) {
  auto text = api.get("/metrics").text;
  auto at = text.find("\n" + name + " ");
  if (at == std::string::npos)
    return -1;
  return std::stod(text.substr(at + name.size() + 2));
}

/// Polls `api`'s /metrics until the node sends its events to `peers` other
/// nodes (docs/cluster.md, "The cluster's events"), at most 10 s.
inline bool sends_events_to(api_client& api, int peers) {
  using namespace std::chrono_literals;
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline)
    if (metric_value(api, "parley_cluster_event_peers") == peers)
      return true;
  return false;
}

/// A fresh database in the shared PostgreSQL cluster; empty (after a
/// warning, once) without the server's binaries.
inline std::string fresh_cluster_database(const std::string& name) {
  auto* pg = shared_postgres();
  return pg == nullptr ? std::string{} : pg->fresh_database(name);
}

/// The message ids of the rounds of negotiation `id`, as `api` reads them.
inline std::vector<std::string> round_ids(api_client& api, const std::string& id) {
  auto got = api.get("/api/v1/negotiations/" + id);
  REQUIRE(got.status == 200);
  std::vector<std::string> out;
  for (const auto& r : got.body["rounds"])
    out.push_back(r.value("message_id", ""));
  return out;
}

/// Sends `move` to `api` again (the same message id: idempotent) until it is
/// answered 2xx, for at most `limit`; every other answer must be E030 with
/// a Retry-After (the owner is down or cut off, or still being taken over).
/// Returns the 2xx answer (status 0: none in time).
inline api_client::answer until_2xx(std::chrono::milliseconds limit, api_client& api,
                                    const std::string& path,
                                    const nlohmann::json& move) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    auto a = api.post(path, move);
    if (a.status / 100 == 2)
      return a;
    INFO(a.body.dump());
    REQUIRE(a.status == 503);
    REQUIRE(a.body["error_code"] == "E030");
    REQUIRE(a.retry_after == "1");
  }
  return {};
}

/// The incarnation that owns negotiation `id` in the store at `url`
/// (negotiation_runtime.owner), read with psql.
inline std::string owner_of(const std::string& url, const std::string& id) {
  auto r = run_command(postgres_cluster::bin_dir() + "/psql -X -At \"" + url +
                       "\" -c \"SELECT owner FROM negotiation_runtime WHERE "
                       "negotiation_id = '" +
                       id + "'\"");
  REQUIRE(r.exit_code == 0);
  return r.output.substr(0, r.output.find('\n'));
}

/// The incarnation `output` (a serve's) joined as.
inline std::string incarnation_of(const std::string& output) {
  auto at = output.find(", incarnation ");
  REQUIRE(at != std::string::npos);
  at += 14;
  return output.substr(at, output.find('\n', at) - at);
}

/// A `parley serve` of cluster prod over `url`, and a client of its API
/// once it serves.
struct cluster_node {
  cluster_node(const std::string& url, const std::string& node_id,
               const std::vector<std::string>& extra = {},
               const std::string& lease_ms = "400")
      : process(cluster_serve_argv(url, node_id, extra, lease_ms)),
        port(wait_until_serving(process)), api(port, contract) {}

  background_process process;
  openapi_contract contract;
  int port;
  api_client api;
};

} // namespace parley::test
