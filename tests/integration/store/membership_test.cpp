// Migration 008 on both back ends: the members of clusters, their
// incarnations and leases by the database's clock (docs/cluster.md,
// "Membership"); through the back end and `parley cluster status`.

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/store_fixture.hpp"

namespace integration_store_membership_test {

using namespace parley::test;
namespace store = parley::actors::store;

namespace {

constexpr std::int64_t minute_ms = 60 * 1000;

store::member_join node(const std::string& node_id, std::int64_t lease_ms = minute_ms) {
  return {"prod", node_id, "127.0.0.1:8080", "127.0.0.1:4242", lease_ms};
}

std::unique_ptr<store::backend> migrated(const store_target& t) {
  auto db = store::open_backend(url_of(t));
  REQUIRE(db->migrate() == 9);
  return db;
}

/// Incarnation `incarnation`'s row in `rows`.
const store::member_row& row_of(const std::vector<store::member_row>& rows,
                                std::int64_t incarnation) {
  auto i = std::find_if(rows.begin(), rows.end(), [&](const auto& m) {
    return m.key.incarnation == incarnation;
  });
  REQUIRE(i != rows.end());
  return *i;
}

/// The words of the line of `output` that names incarnation `incarnation`
/// of `node_id` (none: no such line).
std::vector<std::string> line_of(const std::string& output, const std::string& node_id,
                                 std::int64_t incarnation) {
  std::istringstream lines{output};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in{line};
    std::vector<std::string> words;
    for (std::string w; in >> w;)
      words.push_back(w);
    if (words.size() > 2 && words[1] == node_id &&
        words[2] == std::to_string(incarnation))
      return words;
  }
  return {};
}

} // namespace

TEST_CASE("a join gives a new, larger incarnation, a heartbeat renews its lease, a "
          "superseded or departed incarnation's heartbeat is refused",
          "[integration]") {
  for_each_store("membership", [](const store_target& t) {
    INFO(t.kind);
    auto db = migrated(t);
    auto a = db->join(node("node-a"));
    auto b = db->join(node("node-b"));
    CHECK(b > a);
    auto joined = row_of(db->members("prod"), a);
    CHECK(joined.status == store::member_status::joining);
    CHECK(joined.api_address == "127.0.0.1:8080");
    CHECK(joined.node_address == "127.0.0.1:4242");
    CHECK(joined.lease_age_ms >= 0);

    // The first heartbeat makes a joining member live; each renews the
    // lease from the database's time now.
    store::member_key key_a{"prod", "node-a", a};
    CHECK(db->heartbeat(key_a, 2 * minute_ms));
    auto live = row_of(db->members("prod"), a);
    CHECK(live.status == store::member_status::live);
    CHECK(live.heartbeat_at >= joined.heartbeat_at);
    CHECK(std::abs(live.lease_until - live.heartbeat_at - 2 * minute_ms) <= 1);
    CHECK(live.lease_until > joined.lease_until);

    // node-a again (a restart): a new incarnation, and the old one is fenced.
    auto a2 = db->join(node("node-a"));
    CHECK(a2 > b);
    CHECK_FALSE(db->heartbeat(key_a, minute_ms));
    auto rows = db->members("prod");
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].key.incarnation == a); // by node id, then incarnation
    CHECK(rows[0].status == store::member_status::dead);
    CHECK(rows[1].key.incarnation == a2);
    CHECK(rows[1].status == store::member_status::joining);
    CHECK(rows[2].key.node_id == "node-b");

    // A node that leaves is dead at once, and stays fenced.
    store::member_key key_a2{"prod", "node-a", a2};
    CHECK(db->leave(key_a2));
    CHECK_FALSE(db->leave(key_a2));
    CHECK_FALSE(db->heartbeat(key_a2, minute_ms));
    CHECK(row_of(db->members("prod"), a2).status == store::member_status::dead);
    // The key names the node: another node's incarnation is not ours.
    CHECK_FALSE(db->heartbeat({"prod", "node-a", b}, minute_ms));
    CHECK(db->heartbeat({"prod", "node-b", b}, minute_ms));

    CHECK(db->members("staging").empty());
    db->join({"staging", "node-a", "127.0.0.1:8081", "127.0.0.1:4243", minute_ms});
    CHECK(db->members("").size() == 4);
    CHECK_THROWS_AS(db->join(node("node-c", 0)), store::query_error);
    CHECK_THROWS_AS(db->heartbeat({"prod", "node-b", b}, store::max_lease_ms + 1),
                    store::query_error);
  });
}

TEST_CASE("a lease that lapses reads as dead and its heartbeat is refused",
          "[integration]") {
  for_each_store("membership_lapse", [](const store_target& t) {
    INFO(t.kind);
    auto db = migrated(t);
    auto a = db->join(node("node-a", 200));
    store::member_key key{"prod", "node-a", a};
    REQUIRE(db->heartbeat(key, 200));
    // Polls the database (whose clock decides) until the lease lapses.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    store::member_row row = row_of(db->members("prod"), a);
    while (row.status != store::member_status::dead &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      row = row_of(db->members("prod"), a);
    }
    REQUIRE(row.status == store::member_status::dead);
    CHECK(row.lease_age_ms >= 199);
    CHECK_FALSE(db->heartbeat(key, minute_ms));
    CHECK(row_of(db->members("prod"), a).status == store::member_status::dead);
  });
}

TEST_CASE("parley cluster status lists the members, their status, incarnation and "
          "lease age",
          "[integration]") {
  for_each_store("cluster_status", [](const store_target& t) {
    INFO(t.kind);
    auto db = migrated(t);
    auto a = db->join(node("node-a"));
    REQUIRE(db->heartbeat({"prod", "node-a", a}, minute_ms));
    auto b = db->join(node("node-b"));
    db->join({"staging", "node-s", "127.0.0.1:8081", "127.0.0.1:4243", minute_ms});
    // Node A runs two open negotiations in one room, and an ended one.
    std::string owned;
    for (int i = 1; i <= 3; ++i) {
      auto id = "'0190a4c2-0000-7000-8000-00000000000" + std::to_string(i) + "'";
      owned += "INSERT INTO negotiations (id, intent_id, initiator_did, responder_did, "
               "state, expires_at) VALUES (" +
               id + ", " + id + ", 'a', 'b', '" + (i == 3 ? "accepted" : "proposed") +
               "', '2099-01-01T00:00:00.000Z'); INSERT INTO negotiation_runtime "
               "(negotiation_id, room_id, round_timeout_ms, total_timeout_ms, owner) "
               "VALUES (" +
               id + ", 'room-1', 30000, 300000, " + std::to_string(a) + ");";
    }
    REQUIRE(t.exec(owned).exit_code == 0);

    auto text = run_parley("cluster status --store '" + t.url + "' --cluster prod");
    INFO(text.output);
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(text.output, Catch::Contains("LEASE AGE"));
    // cluster, node, incarnation, status, lease age, "ms", API, node address,
    // open negotiations, their rooms, open channels
    auto line_a = line_of(text.output, "node-a", a);
    REQUIRE(line_a.size() == 11);
    CHECK(line_a[0] == "prod");
    CHECK(line_a[3] == "live");
    CHECK(std::stoll(line_a[4]) >= 0);
    CHECK(line_a[5] == "ms");
    CHECK(line_a[6] == "127.0.0.1:8080");
    CHECK(line_a[7] == "127.0.0.1:4242");
    CHECK(line_a[8] == "2");
    CHECK(line_a[9] == "1");
    CHECK(line_a[10] == "0");
    auto line_b = line_of(text.output, "node-b", b);
    REQUIRE(line_b.size() == 11);
    CHECK(line_b[3] == "joining");
    CHECK(line_b[8] == "0");
    CHECK_THAT(text.output, !Catch::Contains("node-s"));

    auto json = run_parley("cluster status --json --store '" + t.url + "'");
    INFO(json.output);
    REQUIRE(json.exit_code == 0);
    auto members = nlohmann::json::parse(json.output).at("members");
    REQUIRE(members.size() == 3);
    CHECK(members[0]["cluster"] == "prod");
    CHECK(members[0]["node_id"] == "node-a");
    CHECK(members[0]["incarnation"] == a);
    CHECK(members[0]["status"] == "live");
    CHECK(members[0]["lease_age_ms"].get<std::int64_t>() >= 0);
    CHECK(members[0]["node_address"] == "127.0.0.1:4242");
    CHECK(members[0]["taken_over_by"] == 0);
    CHECK(members[0]["negotiations"] == 2);
    CHECK(members[0]["rooms"] == 1);
    CHECK(members[0]["channels"] == 0);
    CHECK(members[2]["cluster"] == "staging");

    auto none = run_parley("cluster status --store '" + t.url + "' --cluster nowhere");
    CHECK(none.exit_code == 0);
    CHECK_THAT(none.output, Catch::Contains("no members in cluster nowhere"));

    // `parley db verify` names the table when it is not there.
    REQUIRE(t.exec("DROP TABLE cluster_members;").exit_code == 0);
    auto verify = run_parley("db verify --store '" + t.url + "'");
    CHECK(verify.exit_code == 1);
    CHECK_THAT(verify.output, Catch::Contains("table cluster_members"));
  });
}

TEST_CASE("parley cluster status refuses a bad store URL, a missing store and one "
          "without migration 008",
          "[integration]") {
  CHECK(run_parley("cluster status --store 'mysql://localhost/x'").exit_code == 2);
  CHECK(run_parley("cluster").exit_code == 2);
  auto t = sqlite_target("cluster_status_absent");
  auto absent = run_parley("cluster status --store '" + t.url + "'");
  CHECK(absent.exit_code == 1);
  CHECK_THAT(absent.output, Catch::Contains("parley cluster: store:"));
  // A store of an earlier build: the command names the migration it lacks.
  REQUIRE(run_parley("db migrate --store '" + t.url + "'").exit_code == 0);
  REQUIRE(run_parley("db rollback --store '" + t.url + "'").exit_code == 0);
  auto earlier = run_parley("cluster status --store '" + t.url + "'");
  CHECK(earlier.exit_code == 1);
  CHECK_THAT(earlier.output,
             Catch::Contains("lacks the cluster_members table and its owners "
                             "(migrations 008 and 009)"));
}

} // namespace integration_store_membership_test
