// GET /metrics of `parley serve`: Prometheus text that moves with what the
// API does (docs/metrics.md).

#include <chrono>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"

namespace integration_metrics_test {

using nlohmann::json;
using parley::test::api_client;
using parley::test::external;
using parley::test::openapi_contract;
using parley::test::serve_process;

namespace {

/// Every sample of a Prometheus text body, by `name{labels}`; CHECKs that
/// every line is a comment, blank, or `name{labels} value`.
std::map<std::string, double> samples_of(const std::string& text) {
  static const std::regex sample{
      R"(^([a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})?) ([-+]?([0-9.]+([eE][-+]?[0-9]+)?|Inf|NaN))$)"};
  std::map<std::string, double> out;
  std::istringstream lines{text};
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::smatch m;
    INFO(line);
    CHECK(std::regex_match(line, m, sample));
    if (m.empty())
      continue;
    auto value = m[5].str();
    out[m[1].str()] = value == "+Inf" || value == "Inf" ? 1e308 : std::stod(value);
  }
  return out;
}

double sample(const std::map<std::string, double>& xs, const std::string& series) {
  auto i = xs.find(series);
  INFO("series " << series);
  CHECK(i != xs.end());
  return i == xs.end() ? -1 : i->second;
}

/// The samples of /metrics once `done` holds for them (asked again until
/// then, as parley::test::poll_until does: the metrics actor counts events a
/// moment after the answer that made them).
template <class Done>
std::map<std::string, double> metrics_when(api_client& api, Done done) {
  auto a =
      parley::test::poll_until([&] { return api.get("/metrics"); },
                               [&](const api_client::answer& x) {
                                 return x.status == 200 && done(samples_of(x.text));
                               });
  REQUIRE(a.status == 200);
  return samples_of(a.text);
}

} // namespace

TEST_CASE("/metrics is Prometheus text whose counters follow the API",
          "[integration][metrics]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  auto first = api.get("/metrics");
  REQUIRE(first.status == 200);
  CHECK(first.content_type == "text/plain; version=0.0.4; charset=utf-8");
  auto before = samples_of(first.text);
  CHECK(sample(before, "parley_negotiations_started_total") == 0);
  CHECK(sample(before, "parley_negotiations_open") == 0);
  CHECK(sample(before, "parley_caf_running_actors") > 0);
  CHECK(sample(before, "parley_caf_scheduler_workers") > 0);
  CHECK(sample(before, "parley_llm_circuit_breakers{state=\"open\"}") == 0);

  // One negotiation opened, one opened and rejected.
  REQUIRE(api.post("/api/v1/agents", external("alice")).status == 201);
  REQUIRE(api.post("/api/v1/agents", external("bob")).status == 201);
  REQUIRE(api.post("/api/v1/agents", external("carol")).status == 201);
  json proposal{{"amount", 10000}, {"currency", "GBP"}, {"description", "logo"}};
  auto open =
      api.post("/api/v1/negotiations",
               {{"initiator", "alice"}, {"responder", "bob"}, {"proposal", proposal}});
  REQUIRE(open.status == 201);
  auto ended = api.post(
      "/api/v1/negotiations",
      {{"initiator", "alice"}, {"responder", "carol"}, {"proposal", proposal}});
  REQUIRE(ended.status == 201);
  auto id = ended.body["id"].get<std::string>();
  auto rejected =
      api.post("/api/v1/negotiations/" + id + "/messages",
               {{"message_id", "m1"}, {"from", "carol"}, {"action", "reject"}});
  REQUIRE(rejected.status == 200);
  CHECK(api.get("/api/v1/agents/zed").status == 404);

  auto xs = metrics_when(api, [](const std::map<std::string, double>& x) {
    auto i = x.find("parley_negotiations_ended_total{outcome=\"rejected\"}");
    return i != x.end() && i->second >= 1;
  });
  CHECK(sample(xs, "parley_negotiations_started_total") == 2);
  CHECK(sample(xs, "parley_negotiations_ended_total{outcome=\"rejected\"}") == 1);
  CHECK(sample(xs, "parley_negotiations_ended_total{outcome=\"agreed\"}") == 0);
  CHECK(sample(xs, "parley_negotiations_open") == 1);
  CHECK(sample(xs, "parley_negotiation_rounds_count") == 1);
  CHECK(sample(xs, "parley_negotiation_rounds_bucket{le=\"+Inf\"}") == 1);
  CHECK(sample(xs, "parley_negotiation_rounds_sum") >= 1);
  CHECK(sample(xs, "parley_negotiation_duration_seconds_count") == 1);
  CHECK(sample(xs, "parley_events_total{topic=\"negotiation.started\"}") == 2);

  // Requests by route pattern and status, never by raw path.
  CHECK(sample(xs,
               "parley_http_requests_total{route=\"/api/v1/agents\",status=\"201\"}") ==
        3);
  CHECK(sample(xs, "parley_http_requests_total{route=\"/api/v1/"
                   "negotiations\",status=\"201\"}") == 2);
  CHECK(
      sample(xs,
             "parley_http_requests_total{route=\"/api/v1/negotiations/{id}/messages\","
             "status=\"200\"}") == 1);
  CHECK(
      sample(
          xs,
          "parley_http_requests_total{route=\"/api/v1/agents/{id}\",status=\"404\"}") ==
      1);
  CHECK(sample(xs, "parley_http_requests_total{route=\"/metrics\",status=\"200\"}") >=
        1);
  for (const auto& x : xs)
    CHECK(x.first.find(id) == std::string::npos);
  CHECK(sample(xs, "parley_http_request_duration_seconds_count") >= 7);

  // The 2xx move was committed: the writer's group commits are recorded.
  CHECK(sample(xs, "parley_store_commits_total") >= 1);
  CHECK(sample(xs, "parley_store_commit_failures_total") == 0);
  CHECK(sample(xs, "parley_store_commit_duration_seconds_count") >= 1);
  CHECK(sample(xs, "parley_store_commit_duration_seconds_sum") > 0);
  CHECK(sample(xs, "parley_store_commit_batch_rows_sum") >= 1);
}

TEST_CASE("/metrics counts a channel from its demand to its final status",
          "[integration][metrics]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  REQUIRE(
      api.post("/api/v1/agents", parley::test::channel_agent("hall", "venue")).status ==
      201);
  auto receipt = api.post("/api/v1/demand/submit", {{"raw_input", "a venue, please"}});
  REQUIRE(receipt.status == 200);
  auto channel_id = receipt.body["channel_id"].get<std::string>();
  auto xs = metrics_when(api, [](const std::map<std::string, double>& x) {
    auto i = x.find("parley_channels_open");
    return i != x.end() && i->second >= 1;
  });
  CHECK(sample(xs, "parley_demands_total") == 1);
  CHECK(sample(xs, "parley_channels_created_total") == 1);
  CHECK(sample(xs, "parley_channels_open") == 1);
  // The only member declines: too few offers, the channel fails.
  parley::test::await_question(api, "hall", "demand_offers", channel_id);
  auto declined = parley::test::offer_message("hall", "h1");
  declined["decision"] = "decline";
  declined["decline_reason"] = "booked";
  REQUIRE(api.post("/api/v1/channels/" + channel_id + "/messages", declined).status ==
          200);
  xs = metrics_when(api, [](const std::map<std::string, double>& x) {
    auto i = x.find("parley_channels_open");
    return i != x.end() && i->second == 0;
  });
  CHECK(sample(xs, "parley_channels_open") == 0);
  auto ended = sample(xs, "parley_channels_ended_total{status=\"failed\"}") +
               sample(xs, "parley_channels_ended_total{status=\"finalized\"}") +
               sample(xs, "parley_channels_ended_total{status=\"force_finalized\"}");
  CHECK(ended == 1);
  CHECK(sample(xs, "parley_channel_duration_seconds_count") == 1);
}

namespace {

/// An external agent on `role`'s side whose utility is the worked example's
/// of docs/outcomes.md: the amount 1..11 stands for the price 0..10.
json valued_agent(const std::string& id, const std::string& role, double reservation) {
  json domain{{"amount", {{"min", 1}, {"max", 11}, {"step", 1}}}};
  return {{"id", id},
          {"profile",
           {{"role", role},
            {"utility", {{"domain", domain}, {"reservation", reservation}}}}},
          {"brain", {{"kind", "external"}}}};
}

} // namespace

TEST_CASE("a negotiation between agents with utilities is scored in its record, the "
          "stats and /metrics",
          "[integration][metrics]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  REQUIRE(api.post("/api/v1/agents", valued_agent("buyer", "buyer", 0.3)).status ==
          201);
  REQUIRE(api.post("/api/v1/agents", valued_agent("seller", "seller", 0.1)).status ==
          201);
  // The buyer offers p = 6 (amount 7) and the seller accepts.
  auto open =
      api.post("/api/v1/negotiations", {{"initiator", "buyer"},
                                        {"responder", "seller"},
                                        {"proposal", parley::test::proposal(7)}});
  REQUIRE(open.status == 201);
  auto id = open.body["id"].get<std::string>();
  REQUIRE(api.post("/api/v1/negotiations/" + id + "/messages",
                   parley::test::simple_move("m1", "seller", "accept"))
              .status == 200);
  auto got =
      parley::test::poll_until([&] { return api.get("/api/v1/negotiations/" + id); },
                               [](const api_client::answer& x) {
                                 return x.status == 200 && x.body.contains("score");
                               });
  REQUIRE(got.status == 200);
  INFO(got.text);
  REQUIRE(got.body.contains("score"));
  const auto& score = got.body["score"];
  CHECK(score["utilities"]["initiator"].get<double>() == Approx(0.4));
  CHECK(score["utilities"]["responder"].get<double>() == Approx(0.6));
  CHECK(score["advantages"]["initiator"].get<double>() ==
        Approx(0.142857).epsilon(1e-5));
  CHECK(score["nash_point"]["initiator"].get<double>() == Approx(0.6));
  CHECK(score["nash_distance"].get<double>() == Approx(0.2828427).epsilon(1e-6));
  CHECK(score["offers"].size() == 1);

  auto stats = parley::test::poll_until(
      [&] { return api.get("/api/v1/stats"); },
      [](const api_client::answer& x) {
        return x.status == 200 && x.body["outcomes_7d"].contains("scores");
      });
  REQUIRE(stats.status == 200);
  INFO(stats.text);
  const auto& means = stats.body["outcomes_7d"]["scores"];
  CHECK(means["negotiations"] == 1);
  CHECK(means["mean_utility"]["responder"].get<double>() == Approx(0.6));
  CHECK(means["mean_welfare"].get<double>() == Approx(1.0));
  CHECK(means["mean_nash_distance"].get<double>() == Approx(0.2828427).epsilon(1e-6));

  auto xs = metrics_when(api, [](const std::map<std::string, double>& x) {
    auto i = x.find("parley_negotiation_nash_distance_count");
    return i != x.end() && i->second >= 1;
  });
  CHECK(sample(xs, "parley_negotiation_utility_count{party=\"initiator\"}") == 1);
  CHECK(
      sample(xs, "parley_negotiation_utility_bucket{party=\"initiator\",le=\"0.3\"}") ==
      0);
  CHECK(
      sample(xs, "parley_negotiation_utility_bucket{party=\"initiator\",le=\"0.4\"}") ==
      1);
  CHECK(
      sample(xs, "parley_negotiation_utility_bucket{party=\"responder\",le=\"0.5\"}") ==
      0);
  CHECK(sample(xs, "parley_negotiation_utility_sum{party=\"responder\"}") ==
        Approx(0.6));
  CHECK(sample(xs, "parley_negotiation_nash_distance_bucket{le=\"0.2\"}") == 0);
  CHECK(sample(xs, "parley_negotiation_nash_distance_bucket{le=\"0.3\"}") == 1);
}

TEST_CASE("/metrics takes GET only, and the bearer token when one is set",
          "[integration][metrics]") {
  serve_process serve{{"--host", "0.0.0.0"}, {"PARLEY_API_TOKEN=s3cret-0123456789"}};
  openapi_contract contract;
  api_client anonymous{serve.port, contract};
  auto denied = anonymous.get("/metrics");
  CHECK(denied.status == 401);
  CHECK(denied.body["error_code"] == "E029");
  api_client client{serve.port, contract, "s3cret-0123456789"};
  auto refused = client.post("/metrics", json::object());
  CHECK(refused.status == 405);
  CHECK(refused.body["error_code"] == "E033");
  auto xs = samples_of(client.get("/metrics").text);
  CHECK(sample(xs, "parley_http_requests_total{route=\"/metrics\",status=\"405\"}") ==
        1);
}

} // namespace integration_metrics_test
