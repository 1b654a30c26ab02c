// `parley run --serve` and `parley bench --serve`: the API over a run while
// it plays and while it lingers after its end, and a run that still ends.
#include <chrono>
#include <csignal>
#include <string>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"
#include "support/process.hpp"
#include "support/sse_client.hpp"

namespace integration_watch_test {

using namespace std::chrono_literals;
using parley::test::api_client;
using parley::test::background_process;
using parley::test::openapi_contract;

namespace {

const std::string scenarios = std::string{PARLEY_SOURCE_DIR} + "/examples/scenarios/";

/// The port of the "serving the run at http://HOST:PORT/" line.
int watched_port(const background_process& p) {
  // The line's end, not its start: an unbuffered log may show the address
  // before the port is written.
  REQUIRE(p.wait_for_output("/ (the dashboard", 20s));
  auto out = p.output();
  auto begin = out.find("serving the run at http://");
  auto colon = out.find(':', begin + 26);
  return std::stoi(out.substr(colon + 1, out.find('/', colon) - colon - 1));
}

} // namespace

TEST_CASE("a run served with --serve answers the API, lingers, and ends on SIGINT",
          "[integration][watch]") {
  background_process run{{PARLEY_BINARY, "run", scenarios + "freelance_deal.json",
                          "--serve", "0", "--serve-linger", "60"}};
  auto port = watched_port(run);
  INFO(run.output());
  REQUIRE(run.wait_for_output("\"type\":\"summary\"", 30s));
  REQUIRE(run.wait_for_output("still serving for 60 s", 10s));
  openapi_contract contract;
  api_client api{port, contract};
  CHECK(api.get("/readyz").status == 200);
  // The run had no --store: its negotiations went to the throwaway one.
  auto page = api.get("/api/v1/negotiations");
  REQUIRE(page.status == 200);
  REQUIRE(page.body["records"].size() == 1);
  CHECK(page.body["records"][0]["status"] == "accepted");
  auto id = page.body["records"][0]["id"].get<std::string>();
  CHECK(api.get("/api/v1/negotiations/" + id).status == 200);
  run.signal(SIGINT);
  CHECK(run.wait_exit(5s) == 0);
}

TEST_CASE("a lingering run stops gracefully on a SIGINT sent as soon as it says it "
          "lingers",
          "[integration][watch]") {
  background_process run{{PARLEY_BINARY, "run", scenarios + "freelance_deal.json",
                          "--serve", "0", "--serve-linger", "60"}};
  watched_port(run);
  INFO(run.output());
  REQUIRE(run.wait_for_output("still serving for 60 s", 30s));
  // The line promises that Ctrl-C ends the linger: the handler must be in
  // place before it is printed, or the signal's default action ends the
  // process (status 130, no graceful stop).
  run.signal(SIGINT);
  CHECK(run.wait_exit(5s) == 0);
}

TEST_CASE("a served run ends by itself once its linger is over",
          "[integration][watch]") {
  background_process run{{PARLEY_BINARY, "run", scenarios + "scripted_counter.json",
                          "--serve", "127.0.0.1:0", "--serve-linger", "1"}};
  watched_port(run);
  INFO(run.output());
  CHECK(run.wait_exit(30s) == 0);
  CHECK(run.output().find("\"type\":\"summary\"") != std::string::npos);
}

TEST_CASE("a load test served with --serve keeps its workload: no store to query",
          "[integration][watch]") {
  background_process bench{
      {PARLEY_BINARY, "bench", "-n", "200", "--serve", "0", "--serve-linger", "60"}};
  auto port = watched_port(bench);
  INFO(bench.output());
  REQUIRE(bench.wait_for_output("still serving for 60 s", 60s));
  CHECK(bench.output().find("accepted=200") != std::string::npos);
  openapi_contract contract;
  api_client api{port, contract};
  CHECK(api.get("/healthz").status == 200);
  auto page = api.get("/api/v1/negotiations");
  CHECK(page.status == 503);
  CHECK(page.body["error_code"] == "E028");
  // The watched bench keeps metrics (docs/metrics.md).
  const std::string agreed =
      "parley_negotiations_ended_total{outcome=\"agreed\"} 200\n";
  auto metrics =
      parley::test::poll_until([&] { return api.get("/metrics"); },
                               [&](const api_client::answer& x) {
                                 return x.text.find(agreed) != std::string::npos;
                               });
  CHECK(metrics.status == 200);
  CHECK(metrics.text.find(agreed) != std::string::npos);
  bench.signal(SIGTERM);
  CHECK(bench.wait_exit(5s) == 0);
}

TEST_CASE("a load test with --serve-clients starts once its stream clients are in, "
          "and they see every negotiation end",
          "[integration][watch]") {
  background_process bench{{PARLEY_BINARY, "bench", "-n", "50", "--serve", "0",
                            "--serve-clients", "2", "--serve-linger", "60"}};
  auto port = watched_port(bench);
  INFO(bench.output());
  REQUIRE(bench.wait_for_output("waiting for 2 event-stream clients", 10s));
  const std::string path = "/api/v1/events/stream?topics=negotiation.agreed";
  parley::test::sse_client first{port, path};
  REQUIRE(!first.headers().empty());
  // One client is not enough: nothing starts.
  CHECK_FALSE(bench.wait_for_output("accepted=", 300ms));
  parley::test::sse_client second{port, path};
  REQUIRE(!second.headers().empty());
  REQUIRE(bench.wait_for_output("accepted=50", 60s));
  for (auto* client : {&first, &second}) {
    CHECK(client->read_until([](const auto& xs) { return xs.size() >= 50; }));
    CHECK(client->events().size() == 50);
    for (const auto& x : client->events())
      CHECK(x.type == "negotiation.agreed");
  }
  bench.signal(SIGINT);
  CHECK(bench.wait_exit(5s) == 0);
}

TEST_CASE("a bad address, simulated time and a ballot bench are refused with --serve",
          "[integration][watch]") {
  auto bad =
      parley::test::run_parley("run " + scenarios + "freelance_deal.json --serve x:y");
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("expected PORT or HOST:PORT") != std::string::npos);
  auto simulated = parley::test::run_parley(
      "run " + scenarios + "freelance_deal.json --serve 0 --simulated-time");
  CHECK(simulated.exit_code == 2);
  auto ballots = parley::test::run_parley("bench --workload ballots -n 10 --serve 0");
  CHECK(ballots.exit_code == 2);
  CHECK(ballots.output.find("not served") != std::string::npos);
  auto exposed = parley::test::run_parley("run " + scenarios +
                                          "freelance_deal.json --serve 0.0.0.0:0");
  CHECK(exposed.exit_code == 1);
  CHECK(exposed.output.find("E019") != std::string::npos);
}

} // namespace integration_watch_test
