// The bearer token of `parley serve`: trimmed, at least 16 characters or serve
// does not start, the scheme in any case, and three failures a connection.

#include <chrono>
#include <string>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/process.hpp"
#include "support/raw_http.hpp"
#include "support/temp_file.hpp"
#include "support/temp_store.hpp"

namespace integration_token_test {

using namespace std::chrono_literals;
using parley::test::raw_answer;
using parley::test::raw_connection;
using parley::test::serve_process;

namespace {

const std::string token = "0123456789abcdef-token";

std::string get(const std::string& path, const std::string& authorization) {
  auto request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n";
  if (!authorization.empty())
    request += "Authorization: " + authorization + "\r\n";
  return request + "\r\n";
}

/// Asks `path` with `authorization` on connection `c`.
raw_answer ask(raw_connection& c, const std::string& path,
               const std::string& authorization) {
  REQUIRE(c.send(get(path, authorization)));
  return c.read_answer(5s);
}

/// `parley serve` started with `environment` (NAME=VALUE) and `arguments`;
/// what it printed before it exited (bounded).
parley::test::process_result start_serve(const std::string& environment,
                                         const std::string& arguments = {}) {
  parley::test::temp_store store;
  return parley::test::run_command("env " + environment + " " + PARLEY_BINARY +
                                       " serve --create-store --port 0 --store " +
                                       store.path() + " " + arguments,
                                   15);
}

void check_refused(const parley::test::process_result& r, const std::string& secret) {
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output,
             Catch::Contains("E019") && Catch::Contains("at least 16 characters"));
  if (!secret.empty())
    CHECK(r.output.find(secret) == std::string::npos);
}

} // namespace

TEST_CASE("serve refuses to start with a token shorter than 16 characters",
          "[integration][token]") {
  SECTION("from the environment") {
    check_refused(start_serve("PARLEY_API_TOKEN=s3cret-0123"), "s3cret-0123");
  }
  SECTION("only spaces") {
    check_refused(start_serve("PARLEY_API_TOKEN='     '"), "");
  }
  SECTION("short once trimmed") {
    check_refused(start_serve("PARLEY_API_TOKEN='   s3cret-0123         '"),
                  "s3cret-0123");
  }
  SECTION("from a file") {
    parley::test::temp_file file{"  s3cret-0123  \n"};
    check_refused(start_serve("", "--token-file " + file.path()), "s3cret-0123");
  }
  SECTION("a blank file") {
    parley::test::temp_file file{"   \nnot-the-first-line-0123456789\n"};
    auto r = start_serve("", "--token-file " + file.path());
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("E019"));
  }
}

TEST_CASE("the token is trimmed of the whitespace around it", "[integration][token]") {
  parley::test::temp_file file{" \t" + token + "  \r\n"};
  serve_process from_file{{"--token-file", file.path()}};
  raw_connection c{from_file.port};
  REQUIRE(c.connected());
  CHECK(ask(c, "/api/v1/agents", "Bearer " + token).status == 200);

  serve_process from_environment{{}, {"PARLEY_API_TOKEN=  " + token + " "}};
  raw_connection d{from_environment.port};
  REQUIRE(d.connected());
  CHECK(ask(d, "/api/v1/agents", "Bearer " + token).status == 200);
}

TEST_CASE("the Bearer scheme is case-insensitive, with any spaces after it",
          "[integration][token]") {
  serve_process serve{{}, {"PARLEY_API_TOKEN=" + token}};
  raw_connection c{serve.port};
  REQUIRE(c.connected());
  for (const auto& scheme : {"Bearer ", "bearer ", "BEARER ", "bEaReR    "}) {
    INFO(scheme);
    CHECK(ask(c, "/api/v1/agents", scheme + token).status == 200);
  }
  // A refusal for each: a fresh connection, so that none is closed for them.
  for (const auto& wrong : {"Bearer" + token, "Basic " + token, "Bearer " + token + "x",
                            std::string{"Bearer "}}) {
    INFO(wrong);
    raw_connection fresh{serve.port};
    REQUIRE(fresh.connected());
    auto a = ask(fresh, "/api/v1/agents", wrong);
    CHECK(a.status == 401);
    CHECK(a.json()["error_code"] == "E029");
  }
}

TEST_CASE("the third failed token on a connection is answered and closes it",
          "[integration][token]") {
  serve_process serve{{}, {"PARLEY_API_TOKEN=" + token}};
  raw_connection c{serve.port};
  REQUIRE(c.connected());
  for (int i = 1; i <= 2; ++i) {
    auto a = ask(c, "/api/v1/agents", "Bearer guess-" + std::to_string(i));
    CHECK(a.status == 401);
    CHECK(a.header("Connection") != "close");
  }
  // Public paths are no attempt.
  CHECK(ask(c, "/healthz", "").status == 200);
  auto third = ask(c, "/api/v1/agents", "");
  CHECK(third.status == 401);
  CHECK(third.json()["error_code"] == "E029");
  CHECK(third.header("Connection") == "close");
  CHECK(c.closed_by_peer(5s));

  raw_connection next{serve.port};
  REQUIRE(next.connected());
  CHECK(ask(next, "/api/v1/agents", "Bearer " + token).status == 200);
}

} // namespace integration_token_test
