// The dashboard's static files as `parley serve` serves them: embedded in
// the binary, each with its Content-Type, offline (nothing loaded from
// elsewhere), and public when serve has a token, while the API keeps
// needing it.

#include <string>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"

namespace integration_dashboard_test {

using parley::test::serve_process;

namespace {

std::string error_code_of(const httplib::Result& res) {
  return nlohmann::json::parse(res->body)["error_code"].get<std::string>();
}

} // namespace

TEST_CASE("serve serves the dashboard's page and assets with their content types",
          "[integration][dashboard]") {
  serve_process serve;
  httplib::Client http{"127.0.0.1", serve.port};
  auto page = http.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
  CHECK(page->body.find("<title>Parley dashboard</title>") != std::string::npos);
  // Offline: every script and stylesheet is the server's own.
  CHECK(page->body.find("src=\"//") == std::string::npos);
  CHECK(page->body.find("href=\"http") == std::string::npos);
  CHECK(page->body.find("src=\"http") == std::string::npos);
  for (const auto* script :
       {"/assets/api.js", "/assets/timelines.js", "/assets/app.js"}) {
    INFO(script);
    CHECK(page->body.find(std::string{"src=\""} + script + "\"") != std::string::npos);
    auto js = http.Get(script);
    REQUIRE(js);
    CHECK(js->status == 200);
    CHECK(js->get_header_value("Content-Type") == "text/javascript; charset=utf-8");
    CHECK(js->body.find("\"use strict\";") != std::string::npos);
  }
  auto css = http.Get("/assets/style.css");
  REQUIRE(css);
  CHECK(css->status == 200);
  CHECK(css->get_header_value("Content-Type") == "text/css; charset=utf-8");

  auto missing = http.Get("/assets/missing.js");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  CHECK(missing->get_header_value("Content-Type") == "application/json");
  CHECK(error_code_of(missing) == "E032");
  auto posted = http.Post("/", "{}", "application/json");
  REQUIRE(posted);
  CHECK(posted->status == 405);
  CHECK(error_code_of(posted) == "E033");
}

TEST_CASE("with a token the dashboard's files are public and the API is not",
          "[integration][dashboard]") {
  serve_process serve{{}, {"PARLEY_API_TOKEN=dashboard-secret"}};
  httplib::Client http{"127.0.0.1", serve.port};
  auto page = http.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  auto js = http.Get("/assets/app.js");
  REQUIRE(js);
  CHECK(js->status == 200);
  auto stats = http.Get("/api/v1/stats");
  REQUIRE(stats);
  CHECK(stats->status == 401);
  CHECK(error_code_of(stats) == "E029");
  auto authorized =
      http.Get("/api/v1/stats", {{"Authorization", "Bearer dashboard-secret"}});
  REQUIRE(authorized);
  CHECK(authorized->status == 200);
}

} // namespace integration_dashboard_test
