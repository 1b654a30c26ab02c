// Crash recovery reads the store page by page (500 agents, rooms or open
// negotiations at a time, actors/gateway/actor.cpp): a store holding several
// pages of each must come back whole, nothing skipped or resumed twice at a
// page's edge.

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/store/actor.hpp"
#include "actors/store/backend.hpp"
#include "actors/store/batch.hpp"
#include "actors/store/registry.hpp"
#include "messages/events.hpp"
#include "support/api_client.hpp"
#include "support/temp_store.hpp"

namespace integration_recovery_pages_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::background_process;
using parley::test::openapi_contract;
namespace msg = parley::messages;
namespace store = parley::actors::store;

namespace {

/// Two and a half pages of rooms and open negotiations, five of agents.
constexpr int pairs = 1250;

std::string numbered(const char* prefix, int i) {
  char digits[8];
  std::snprintf(digits, sizeof digits, "%04d", i);
  return prefix + std::string{digits};
}

std::string negotiation_id(int i) {
  char id[40];
  std::snprintf(id, sizeof id, "00000000-0000-4000-8000-%012d", i);
  return id;
}

msg::agent_spec external_agent(const std::string& id) {
  msg::agent_spec x;
  x.id = id;
  x.brain.kind = msg::brain_kind::external;
  return x;
}

/// Negotiation i in room i, proposed by x<i> to y<i>. Every one expires at
/// the same instant, so that the pages' order rests on their ids there.
msg::negotiation_record open_negotiation(int i, std::int64_t now_ms) {
  msg::negotiation_record r;
  r.id = negotiation_id(i);
  r.room_id = numbered("room-", i);
  r.initiator = numbered("x", i);
  r.responder = numbered("y", i);
  r.status = msg::negotiation_status::proposed;
  r.round_timeout_ms = 3'600'000;
  r.total_timeout_ms = 3'600'000;
  r.created_at = now_ms;
  r.updated_at = now_ms;
  r.expires_at = now_ms + r.total_timeout_ms;
  msg::proposal p;
  p.amount = 10000 + i;
  p.currency = "GBP";
  r.current_proposal = p;
  r.rounds.push_back({1, r.initiator, p, msg::round_action::propose, "", now_ms,
                      "open-" + std::to_string(i)});
  return r;
}

/// Writes `pairs` agent pairs, a room for each and an open negotiation in
/// each room into the SQLite store at `path`, as a serve killed with them
/// open would have left them.
void seed(const std::string& path) {
  store::store_url url;
  REQUIRE(store::parse_store_url(path, url).empty());
  auto db = store::open_migrated(url);
  auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  store::batch b;
  for (int i = 1; i <= pairs; ++i) {
    auto x = numbered("x", i), y = numbered("y", i);
    db->put_entry(store::registry::agents, store::agent_row(external_agent(x)));
    db->put_entry(store::registry::agents, store::agent_row(external_agent(y)));
    db->put_entry(store::registry::rooms,
                  store::room_row({numbered("room-", i), {x, y}}));
    msg::negotiation_event e;
    e.kind = msg::negotiation_event_kind::started;
    e.negotiation_id = negotiation_id(i);
    e.record = msg::shared_record{open_negotiation(i, now_ms)};
    b.add(e);
  }
  db->write(b.take(), {});
}

} // namespace

TEST_CASE("recovery over several pages resumes every stored agent, room and open "
          "negotiation once",
          "[integration]") {
  parley::test::temp_store store;
  seed(store.path());
  openapi_contract contract;
  background_process serve{std::vector<std::string>{PARLEY_BINARY, "serve", "--port",
                                                    "0", "--store", store.path()}};
  api_client api{parley::test::wait_until_serving(serve), contract};
  INFO(serve.output());
  CHECK(serve.output().find(
            "recovered 2500 agents, 1250 rooms, 1250 open negotiations") !=
        std::string::npos);
  // Each negotiation is back in the gateway, awaiting its responder's move
  // (the turns come from the gateway's own memory, not from the store).
  int awaiting = 0;
  for (int i = 1; i <= pairs; ++i) {
    auto turns = api.get("/api/v1/agents/" + numbered("y", i) + "/turns");
    REQUIRE(turns.status == 200);
    const auto& open = turns.body["negotiations"];
    if (open.size() == 1 && open[0]["id"] == negotiation_id(i) &&
        open[0]["room_id"] == numbered("room-", i))
      ++awaiting;
    else
      FAIL_CHECK("y" << i << ": " << turns.body.dump());
  }
  CHECK(awaiting == pairs);
  serve.signal(SIGTERM);
  CHECK(serve.wait_exit(5s) == 0);
}

} // namespace integration_recovery_pages_test
