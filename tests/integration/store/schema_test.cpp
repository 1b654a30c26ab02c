// The store's schema (docs/protocols/record-and-schema.md) on both back ends:
// migrations, verify, rollback, and every CHECK constraint.

#include <catch2/catch.hpp>

#include "actors/store/backend.hpp"
#include "support/store_backends.hpp"

namespace integration_store_schema_test {

using namespace parley::test;
namespace store = parley::actors::store;

namespace {

std::unique_ptr<store::backend> open(const store_target& t) {
  store::store_url url;
  REQUIRE(store::parse_store_url(t.url, url).empty());
  return store::open_backend(url);
}

const std::string uuid_a = "0190a4c2-0000-7000-8000-00000000000a";
const std::string uuid_b = "0190a4c2-0000-7000-8000-00000000000b";

/// An INSERT of a row with every required column; `column = value` pairs in
/// `overrides` replace or add columns (value as SQL text, NULL for null).
std::string insert(const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<std::pair<std::string, std::string>> cols = {
      {"id", "'" + uuid_a + "'"},
      {"intent_id", "'" + uuid_b + "'"},
      {"initiator_did", "'did:key:alice'"},
      {"responder_did", "'did:key:bob'"},
      {"state", "'initiated'"},
      {"expires_at", "'2030-01-01T00:00:00.000Z'"},
  };
  for (const auto& override : overrides) {
    auto i = std::find_if(cols.begin(), cols.end(),
                          [&](const auto& c) { return c.first == override.first; });
    if (i == cols.end())
      cols.push_back(override);
    else
      i->second = override.second;
  }
  std::string names, values;
  for (const auto& [k, v] : cols) {
    names += (names.empty() ? "" : ", ") + k;
    values += (values.empty() ? "" : ", ") + v;
  }
  return "INSERT INTO negotiations (" + names + ") VALUES (" + values + ");";
}

} // namespace

TEST_CASE("migrations apply, verify and roll back on both back ends", "[integration]") {
  for_each_store("schema", [](const store_target& t) {
    INFO(t.kind);
    auto db = open(t);
    CHECK(db->verify() == std::vector<std::string>{"table negotiations"});
    CHECK(db->migrate() == 9);
    CHECK(db->verify().empty());
    CHECK(db->migrate() == 0); // idempotent
    const std::string members = "table cluster_members";
    const std::string owner = "column negotiation_runtime.owner";
    const std::string channel_owner = "column channels.owner";
    CHECK(db->rollback() == 9); // the newest first: 009, owners
    CHECK(db->verify() ==
          std::vector<std::string>{owner, channel_owner,
                                   "column cluster_members.taken_over_by"});
    CHECK(db->rollback() == 8); // then 008, cluster members
    CHECK(db->verify() == std::vector<std::string>{members, owner, channel_owner});
    const std::string score = "column negotiation_runtime.score";
    CHECK(db->rollback() == 7); // then 007, deal scores
    CHECK(db->verify() ==
          std::vector<std::string>{members, score, owner, channel_owner});
    // Then 006, the open rows' order: the expiry index is there, on one column.
    CHECK(db->rollback() == 6);
    CHECK(db->verify() ==
          std::vector<std::string>{members, score, owner, channel_owner});
    CHECK(db->rollback() == 5); // then 005, demands
    CHECK(db->verify() == std::vector<std::string>{members, score, owner, channel_owner,
                                                   "table parley_demands"});
    CHECK(db->rollback() == 4); // then 004, compact channel events
    CHECK(db->verify() ==
          std::vector<std::string>{members, "column channel_events.body", score, owner,
                                   channel_owner, "table parley_demands"});
    CHECK(db->rollback() == 3); // then 003, channels
    CHECK(db->verify() ==
          std::vector<std::string>{"table channels", "table channel_events", members,
                                   score, owner, "table parley_demands"});
    CHECK(db->rollback() == 2); // then 002, agents and rooms
    CHECK(db->verify() ==
          std::vector<std::string>{"table channels", "table channel_events", members,
                                   score, owner, "table parley_agents",
                                   "table parley_rooms", "table parley_demands"});
    CHECK(db->rollback() == 1);
    CHECK(db->verify() == std::vector<std::string>{"table negotiations"});
    CHECK(db->rollback() == 0);
    CHECK(db->migrate() == 9);
    CHECK(db->verify().empty());
  });
}

TEST_CASE("parley db verify names what is missing and exits non-zero", "[integration]") {
  for_each_store("verify_cli", [](const store_target& t) {
    INFO(t.kind);
    auto migrate = run_parley("db migrate --store '" + t.url + "'");
    INFO(migrate.output);
    REQUIRE(migrate.exit_code == 0);
    auto ok = run_parley("db verify --store '" + t.url + "'");
    INFO(ok.output);
    CHECK(ok.exit_code == 0);
    CHECK_THAT(ok.output, Catch::Contains("has the negotiation store's schema"));
    auto dropped = t.exec(
        "DROP INDEX idx_negotiations_convergence;"
        "DROP TRIGGER negotiations_updated_at" +
        std::string{t.kind == "postgresql" ? " ON negotiations;" : ";"} +
        (t.kind == "postgresql" ? "DROP FUNCTION expire_stale_negotiations();"
                                : "DROP VIEW expire_stale_negotiations;"));
    INFO(dropped.output);
    REQUIRE(dropped.exit_code == 0);
    auto bad = run_parley("db verify --store '" + t.url + "'");
    CHECK(bad.exit_code == 1);
    CHECK_THAT(bad.output, Catch::Contains("index idx_negotiations_convergence"));
    CHECK_THAT(bad.output, Catch::Contains("trigger negotiations_updated_at"));
    CHECK_THAT(bad.output, Catch::Contains("function expire_stale_negotiations"));
    CHECK(run_parley("db rollback --store '" + t.url + "'").exit_code == 0);
  });
}

TEST_CASE("every CHECK of the table rejects a bad row, a good row gets the defaults",
          "[integration]") {
  for_each_store("checks", [](const store_target& t) {
    INFO(t.kind);
    open(t)->migrate();
    const std::vector<std::vector<std::pair<std::string, std::string>>> bad = {
        {{"state", "'countering'"}},
        {{"state", "NULL"}},
        {{"convergence_score", "1.01"}},
        {{"convergence_score", "-0.01"}},
        {{"max_rounds", "0"}},
        {{"max_rounds", "21"}},
        {{"expires_at", "NULL"}},
        {{"intent_id", "NULL"}},
        {{"intent_id", "'not-a-uuid'"}},
        {{"initiator_did", "NULL"}},
        {{"responder_did", "NULL"}},
        {{"id", "'neg_1'"}},
    };
    for (const auto& row : bad) {
      auto sql = insert(row);
      INFO(sql);
      auto r = t.exec(sql);
      CHECK(r.exit_code != 0);
    }
    auto good = t.exec(insert({{"convergence_score", "0.85"}, {"max_rounds", "20"}}));
    INFO(good.output);
    REQUIRE(good.exit_code == 0);
    auto defaults = t.exec(
        "SELECT rounds, max_rounds, incentive_split, created_at IS NOT NULL, "
        "updated_at IS NOT NULL FROM negotiations;");
    INFO(defaults.output);
    CHECK(defaults.exit_code == 0);
    CHECK_THAT(defaults.output, Catch::Contains("[]"));
    CHECK_THAT(defaults.output, Catch::Contains("20"));
    CHECK_THAT(defaults.output, Catch::Contains("\"agent\": 0.70"));
    // A second row with the same id: the primary key refuses it.
    CHECK(t.exec(insert({})).exit_code != 0);
  });
}

} // namespace integration_store_schema_test
