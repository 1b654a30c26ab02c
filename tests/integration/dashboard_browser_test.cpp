// The dashboard in a real headless Chromium (driven over WebDriver,
// support/webdriver.hpp): `parley serve` with rule, script and strategy agents
// whose negotiations are opened over the API; the page's counters and table
// move with the event streams, a clicked negotiation shows the rounds the API
// returns (and, when scored, its concession chart), the deal quality counts
// scored negotiations, and a demand submitted through the page's form reaches
// its channel's final state. Leaves a screenshot in the build folder's
// dashboard.png, or where PARLEY_SCREENSHOT says, and of a scored
// negotiation's concession chart in dashboard-score.png, or where
// PARLEY_SCORE_SCREENSHOT says (the README's
// docs/dashboard.png and docs/dashboard-score.png are refreshed that way; a test
// run changes no source). Skipped,
// with a visible warning, when no browser is installed.

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"
#include "support/cluster_nodes.hpp"
#include "support/webdriver.hpp"

namespace integration_dashboard_browser_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::browser;
using parley::test::openapi_contract;
using parley::test::serve_process;

namespace {

json rule_agent(const std::string& id, const std::string& side) {
  return {{"id", id},
          {"profile", {{"display_name", id}, {"role", side}}},
          {"brain", {{"kind", "rule"}, {"side", side}}}};
}

/// A rule agent that is a channel member too (docs/protocols/channels.md): it offers
/// `tag`.
json member_agent(const std::string& id, const std::string& tag) {
  auto x = parley::test::channel_agent(id, tag);
  x["brain"]["kind"] = "rule";
  return x;
}

/// A strategy agent with a utility over amounts of 1,000 to 2,000 minor units
/// (docs/outcomes.md, "Domains in Parley"): two of them make a scored negotiation.
json strategy_agent(const std::string& id, const std::string& side) {
  return {{"id", id},
          {"profile",
           {{"display_name", id},
            {"role", side},
            {"utility",
             {{"domain", {{"amount", {{"min", 1000}, {"max", 2000}, {"step", 100}}}}},
              {"reservation", 0.2}}}}},
          {"brain", {{"kind", "strategy"}, {"strategy", "linear"}, {"side", side}}}};
}

json script_agent(const std::string& id, const json& script) {
  return {{"id", id}, {"brain", {{"kind", "script"}, {"script", script}}}};
}

json opening(const std::string& initiator, const std::string& responder,
             std::int64_t amount) {
  return {{"initiator", initiator},
          {"responder", responder},
          {"proposal",
           {{"amount", amount},
            {"currency", "GBP"},
            {"escrow", true},
            {"description", "logo design"}}}};
}

/// How the page writes an amount (api.js, fmt.amount).
std::string shown_amount(const json& proposal) {
  auto amount = proposal["amount"].get<std::int64_t>();
  auto cents = std::to_string(amount % 100);
  return proposal["currency"].get<std::string>() + " " + std::to_string(amount / 100) +
         "." + (cents.size() == 1 ? "0" + cents : cents);
}

/// A script returning the text of the element `id`.
std::string text_of(const std::string& id) {
  return "return (document.getElementById('" + id + "') || {}).textContent;";
}

/// Saves a screenshot of `page` where the environment variable `variable`
/// says, or at `otherwise`.
void screenshot(browser& page, const char* variable, const std::string& otherwise) {
  const char* where = std::getenv(variable);
  page.screenshot(where != nullptr ? where : otherwise);
}

} // namespace

TEST_CASE("the dashboard follows negotiations and a demand live in a headless browser",
          "[integration][dashboard][browser]") {
  if (!parley::test::browser_available()) {
    WARN(parley::test::browser_missing);
    SUCCEED();
    return;
  }
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  std::vector<std::pair<std::string, std::string>> pairs{{"client-1", "freelancer-1"},
                                                         {"client-2", "freelancer-2"}};
  for (const auto& [buyer, seller] : pairs) {
    REQUIRE(api.post("/api/v1/agents", rule_agent(buyer, "buyer")).status == 201);
    REQUIRE(api.post("/api/v1/agents", rule_agent(seller, "seller")).status == 201);
  }
  // Scripted: each reply after a pause, so the negotiation stays open a while.
  auto reply = [](const std::string& action, std::int64_t amount,
                  const std::string& reason) {
    json x{{"action", action}, {"reason", reason}, {"delay_ms", 700}};
    if (amount > 0)
      x["proposal"] = {{"amount", amount}};
    return x;
  };
  REQUIRE(api.post("/api/v1/agents",
                   script_agent("alice", json::array({reply("counter", 80000,
                                                            "Meet me halfway")})))
              .status == 201);
  REQUIRE(api.post("/api/v1/agents",
                   script_agent("bob", json::array({reply("counter", 90000,
                                                          "Too low for the scope"),
                                                    reply("accept", 0, "Deal")})))
              .status == 201);
  REQUIRE(api.post("/api/v1/agents", member_agent("hall", "venue")).status == 201);
  REQUIRE(api.post("/api/v1/agents", member_agent("voice", "speaker")).status == 201);

  browser page;
  const auto home = "http://127.0.0.1:" + std::to_string(serve.port) + "/";
  page.open(home);
  REQUIRE(page.wait_until("return !!document.getElementById('count-open') && "
                          "document.getElementById('count-agreed').textContent === '0'",
                          10s));
  // The general event stream (GET /api/v1/events/stream) is connected.
  CHECK(page.wait_until("return document.getElementById('live').textContent === 'live'",
                        10s));

  std::vector<std::string> ids;
  for (const auto& [buyer, seller] : pairs) {
    auto opened = api.post("/api/v1/negotiations", opening(buyer, seller, 80000));
    REQUIRE(opened.status == 201);
    ids.push_back(opened.body["id"].get<std::string>());
  }
  auto scripted = api.post("/api/v1/negotiations", opening("alice", "bob", 70000));
  REQUIRE(scripted.status == 201);
  const auto scripted_id = scripted.body["id"].get<std::string>();
  ids.push_back(scripted_id);

  // Live: the counters and the table move with the stream's events.
  CHECK(
      page.wait_until("return +document.getElementById('count-open').textContent >= 1 "
                      "|| +document.getElementById('count-agreed').textContent >= 1",
                      15s));
  CHECK(page.wait_until(
      "return +document.getElementById('count-agreed').textContent === 3 && "
      "document.querySelectorAll('#negotiations tbody tr').length === 3",
      30s));

  json record;
  for (const auto& id : ids) {
    auto ended =
        parley::test::poll_until([&] { return api.get("/api/v1/negotiations/" + id); },
                                 [](const api_client::answer& x) {
                                   return x.body.value("status", "") == "accepted";
                                 });
    INFO(ended.body.dump());
    REQUIRE(ended.body["status"] == "accepted");
    if (id == scripted_id)
      record = ended.body;
  }

  // A fresh load reads the same from the API alone.
  page.open(home);
  REQUIRE(page.wait_until(
      "return document.querySelectorAll('#negotiations tbody tr').length === 3", 10s));
  CHECK(page.wait_until(
      "return document.getElementById('count-agreed').textContent === "
      "'3' && document.getElementById('count-open').textContent === '0'",
      5s));

  // A negotiation's timeline: the rounds the API returns.
  auto rows = page.find_all("tr[data-negotiation-id=\"" + scripted_id + "\"]");
  REQUIRE(rows.size() == 1);
  page.click(rows[0]);
  const auto& rounds = record["rounds"];
  REQUIRE(rounds.size() == 4);
  REQUIRE(
      page.wait_until("return document.querySelectorAll('#timeline-rounds tr.round')"
                      ".length === " +
                          std::to_string(rounds.size()),
                      10s));
  auto shown = page.run("return [...document.querySelectorAll('#timeline-rounds "
                        "tr.round')].map(r => [...r.cells].map(c => c.textContent));");
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    INFO("round " << i + 1 << ": " << shown[i].dump());
    CHECK(shown[i][0] == std::to_string(rounds[i]["round"].get<int>()));
    CHECK(shown[i][1] == rounds[i]["from_agent"]);
    CHECK(shown[i][2] == rounds[i]["action"]);
    CHECK(shown[i][3] == shown_amount(rounds[i]["proposal"]));
  }
  CHECK(page.run(text_of("timeline-status")) == "accepted");
  // Script agents have no utilities: no score, no concession chart.
  CHECK(page.run("return !document.getElementById('concession-chart');") == true);

  // A demand through the form: its channel reaches its final state.
  auto input = page.find_all("#demand-input");
  REQUIRE(input.size() == 1);
  page.type(input[0], "An AI meetup needs a venue and a speaker");
  page.click(page.find_all("#demand-submit").at(0));
  REQUIRE(page.wait_until(
      "return document.getElementById('demand-result').textContent.startsWith('demand "
      "')",
      10s));
  auto demand_id =
      page.run("return document.querySelector('#channels tbody tr').dataset.demandId;")
          .get<std::string>();
  auto demand = parley::test::poll_until(
      [&] { return api.get("/api/v1/demands/" + demand_id); },
      [](const api_client::answer& x) {
        return x.body.value("status", "processing") != "processing";
      });
  INFO(demand.body.dump());
  REQUIRE(demand.status == 200);
  const auto channel_id = demand.body["channels"][0]["channel_id"].get<std::string>();
  const auto final_status = demand.body["channels"][0]["status"].get<std::string>();
  CHECK(final_status == "finalized");
  REQUIRE(page.wait_until("return !!document.querySelector('#timeline p.final')", 20s));
  CHECK(page.run("return document.querySelector('#timeline .channel-status')"
                 ".textContent;") == final_status);
  CHECK(page.run("return document.querySelector('#channels tr[data-channel-id=\"" +
                 channel_id + "\"] td.status').textContent;") == final_status);
  // From the demand's own stream (docs/protocols/channels.md, "Flow"): offers, then the
  // feedback's counts and accept rate.
  CHECK(page.wait_until(
      "return document.querySelectorAll('#timeline li.offer').length === 2 && "
      "/accept rate 100%/.test(document.querySelector('#timeline p.feedback')"
      "?.textContent)",
      10s));

  screenshot(page, "PARLEY_SCREENSHOT", PARLEY_BUILD_DIR "/dashboard.png");
}

TEST_CASE("the dashboard shows a scored negotiation's concession chart and counts it "
          "in the deal quality",
          "[integration][dashboard][browser]") {
  if (!parley::test::browser_available()) {
    WARN(parley::test::browser_missing);
    SUCCEED();
    return;
  }
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  REQUIRE(api.post("/api/v1/agents", strategy_agent("ubuyer", "buyer")).status == 201);
  REQUIRE(api.post("/api/v1/agents", strategy_agent("useller", "seller")).status ==
          201);
  auto opened = api.post("/api/v1/negotiations", opening("ubuyer", "useller", 1000));
  REQUIRE(opened.status == 201);
  const auto id = opened.body["id"].get<std::string>();
  auto ended = parley::test::poll_until(
      [&] { return api.get("/api/v1/negotiations/" + id); },
      [](const api_client::answer& x) {
        auto status = x.body.value("status", "");
        return (status == "accepted" || status == "rejected" || status == "expired") &&
               x.body.contains("score");
      });
  INFO(ended.body.dump());
  REQUIRE(ended.body.contains("score"));
  const auto offers = ended.body["score"]["offers"].size();
  REQUIRE(offers >= 1);

  browser page;
  page.open("http://127.0.0.1:" + std::to_string(serve.port) + "/");
  CHECK(page.wait_until(
      "return +document.getElementById('quality-scored').textContent >= 1", 10s));
  const auto row = "tr[data-negotiation-id=\"" + id + "\"]";
  REQUIRE(page.wait_until("return !!document.querySelector('" + row + "')", 10s));
  page.click(page.find_all(row).at(0));
  REQUIRE(page.wait_until("return !!document.getElementById('concession-chart')", 10s));
  CHECK(
      page.run("return document.getElementById('concession-chart').dataset.offers;") ==
      std::to_string(offers));
  // One dot per offer, whichever party made it.
  CHECK(page.run("return document.querySelectorAll('#concession-chart circle.party-a, "
                 "#concession-chart circle.party-b').length;") == offers);
  page.run("document.getElementById('score').scrollIntoView(); return true;");
  screenshot(page, "PARLEY_SCORE_SCREENSHOT", PARLEY_BUILD_DIR "/dashboard-score.png");
}

TEST_CASE("the dashboard of a serve with a token asks for it and then reads the API",
          "[integration][dashboard][browser]") {
  if (!parley::test::browser_available()) {
    WARN(parley::test::browser_missing);
    SUCCEED();
    return;
  }
  const std::string token = "dashboard-secret";
  serve_process serve{{}, {"PARLEY_API_TOKEN=" + token}};
  openapi_contract contract;
  api_client api{serve.port, contract, token};
  REQUIRE(api.post("/api/v1/agents", rule_agent("client", "buyer")).status == 201);
  REQUIRE(api.post("/api/v1/agents", rule_agent("freelancer", "seller")).status == 201);
  REQUIRE(
      api.post("/api/v1/negotiations", opening("client", "freelancer", 80000)).status ==
      201);

  browser page;
  page.open("http://127.0.0.1:" + std::to_string(serve.port) + "/");
  REQUIRE(page.wait_until("return !document.getElementById('notice').hidden && "
                          "/token/.test(document.getElementById('notice').textContent)",
                          10s));
  CHECK(page.run(
            "return document.querySelectorAll('#negotiations tbody tr').length;") == 0);
  page.type(page.find_all("#token").at(0), token);
  page.click(page.find_all("#token-form button").at(0));
  REQUIRE(page.wait_until(
      "return document.querySelectorAll('#negotiations tbody tr').length === 1", 10s));
  CHECK(page.run("return document.getElementById('notice').hidden;") == true);
  // The stream is read with fetch, which can send the token.
  CHECK(page.wait_until("return document.getElementById('live').textContent === 'live'",
                        10s));
}

TEST_CASE("a cluster node's dashboard lists the members and shows another node's "
          "negotiation live, naming its node",
          "[integration][dashboard][browser][postgresql]") {
  if (!parley::test::browser_available()) {
    WARN(parley::test::browser_missing);
    SUCCEED();
    return;
  }
  auto url = parley::test::fresh_cluster_database("dashboard_cluster");
  if (url.empty())
    return;
  parley::test::cluster_node a{url, "node-a", {"--placement", "local"}, "2000"};
  parley::test::cluster_node b{url, "node-b", {"--placement", "local"}, "2000"};
  INFO(a.process.output() << b.process.output());
  REQUIRE(parley::test::becomes_live(a.api, "node-b"));
  REQUIRE(parley::test::becomes_live(a.api, "node-a"));

  browser page;
  page.open("http://127.0.0.1:" + std::to_string(a.port) + "/");
  // The members, refreshed every 2 s: both nodes live, with their counts.
  REQUIRE(page.wait_until("return !document.getElementById('cluster').hidden && "
                          "document.querySelectorAll('#members tbody tr').length === 2",
                          10s));
  CHECK(page.run("return document.getElementById('cluster-name').textContent;") ==
        "prod");
  CHECK(page.run("return [...document.querySelectorAll('#members tbody tr')].map(r => "
                 "r.dataset.nodeId + ' ' + r.querySelector('.status').textContent);") ==
        json::array({"node-a live", "node-b live"}));
  REQUIRE(page.wait_until(
      "return document.getElementById('live').textContent === 'live'", 10s));
  REQUIRE(parley::test::sends_events_to(b.api, 1));
  // Opened through B and run there: it shows up on A's page, from B's events.
  auto id = parley::test::open_negotiation(b.api, "did:key:buyer", "did:key:seller");
  REQUIRE(page.wait_until("return [...document.querySelectorAll('#negotiations tbody "
                          "tr')].some(r => r.dataset.negotiationId === '" +
                              id +
                              "' && r.querySelector('td.node').textContent === "
                              "'node-b');",
                          10s));
  // B's open negotiation is counted in its row once the members are read again.
  CHECK(page.wait_until("const r = document.querySelector('#members "
                        "tr[data-node-id=\"node-b\"] .negotiations'); return r && "
                        "r.textContent === '1';",
                        10s));
}

} // namespace integration_dashboard_browser_test
