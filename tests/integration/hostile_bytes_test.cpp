// `parley serve` against hostile and careless requests over a raw socket
// (an HTTP client library may refuse to send such bytes): bytes that are
// not UTF-8 in a body, a path or a header, keys given twice, ids holding
// control characters, methods a route does not take. Each gets a coded 4xx
// whose body is valid UTF-8 JSON, and serve goes on answering.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/temp_file.hpp"

namespace integration_hostile_bytes_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::serve_process;

namespace {

/// One answer as read off the socket.
struct raw_answer {
  int status = 0;
  /// The header block, as sent.
  std::string head;
  std::string body;

  /// The value of header `name` (as the server spells it), empty when absent.
  std::string header(const std::string& name) const {
    auto at = head.find("\r\n" + name + ": ");
    if (at == std::string::npos)
      return {};
    at += name.size() + 4;
    return head.substr(at, head.find("\r\n", at) - at);
  }
};

/// Sends `bytes` as they are to 127.0.0.1:`port` and reads the answer until
/// the server closes the connection (the requests say `Connection: close`),
/// at most 10 s.
raw_answer send_raw(int port, const std::string& bytes) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  raw_answer a;
  std::string in;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(bytes.size())) {
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0)
        continue;
      char buf[65536];
      auto n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0)
        break;
      in.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  auto end = in.find("\r\n\r\n");
  if (in.rfind("HTTP/1.1 ", 0) != 0 || end == std::string::npos)
    return a;
  a.status = std::stoi(in.substr(9, 3));
  a.head = in.substr(0, end + 2);
  a.body = in.substr(end + 4);
  return a;
}

/// A request with `headers` (each ending in CRLF) and `body`.
std::string request(const std::string& method, const std::string& target,
                    const std::string& body = {}, const std::string& headers = {}) {
  std::string out = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                    "Connection: close\r\n" + headers;
  if (!body.empty() || method == "POST")
    out += "Content-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n";
  return out + "\r\n" + body;
}

std::string bearer(const std::string& token) {
  return token.empty() ? std::string{} : "Authorization: Bearer " + token + "\r\n";
}

/// Checks that `a` is a coded error `status`/`code` whose body is valid
/// UTF-8 JSON (nlohmann's parser refuses any other byte).
void check_coded(const raw_answer& a, int status, const std::string& code) {
  INFO(a.head << a.body);
  CHECK(a.status == status);
  auto body = json::parse(a.body, nullptr, false);
  REQUIRE_FALSE(body.is_discarded());
  CHECK(body["error_code"] == code);
  CHECK(body["message"].is_string());
}

/// A UUID no negotiation has.
const std::string unknown_id = "0190a6e2-5b7c-7d3e-8f00-000000000000";

/// A JSON body whose id holds the byte 0xFF.
const std::string invalid_body = "{\"id\":\"a\xff\",\"brain\":{\"kind\":\"external\"}}";

/// Every JSON POST route of docs/openapi.json (`{id}` an id it accepts).
const std::vector<std::string> json_post_routes{
    "/api/v1/agents",
    "/api/v1/rooms",
    "/api/v1/negotiations",
    "/api/v1/negotiations/" + unknown_id + "/messages",
    "/api/v1/maintenance/expire",
    "/api/v1/demand/submit",
    "/api/v1/channels/some-channel/messages",
};

/// The three bytes that stopped serve before (issue 35): a body, a path and
/// a Last-Event-ID that are not UTF-8; serve answers each with a coded 4xx
/// and goes on. `token` empty: serve has none.
void hostile_bytes_are_coded_errors(int port, const std::string& token) {
  for (const auto& route : json_post_routes) {
    INFO("POST " << route);
    check_coded(send_raw(port, request("POST", route, invalid_body, bearer(token))),
                400, "E001");
    check_coded(send_raw(port, request("POST", route, "\xff", bearer(token))), 400,
                "E001");
  }
  // The dashboard's files are public: no token needed.
  check_coded(send_raw(port, request("GET", "/assets/\xff")), 404, "E032");
  check_coded(send_raw(port, request("GET", "/assets/a\xc3")), 404, "E032");
  check_coded(send_raw(port, request("GET", "/api/v1/events/stream", {},
                                     "Last-Event-ID: \xff\r\n" + bearer(token))),
              400, "E001");
  check_coded(send_raw(port, request("GET", "/api/v1/agents/\xff", {}, bearer(token))),
              400, "E001");
  // An unknown route's answer names the target, query and all.
  check_coded(send_raw(port, request("GET", "/api/v1/nothing?\xff", {}, bearer(token))),
              404, "E032");
  // Not a UUID, and quoted in the answer cut at 64 bytes: inside the euro sign.
  check_coded(send_raw(port, request("GET",
                                     "/api/v1/negotiations/" + std::string(63, 'a') +
                                         "\xe2\x82\xac",
                                     {}, bearer(token))),
              400, "E001");
  auto health = send_raw(port, request("GET", "/healthz"));
  CHECK(health.status == 200);
  CHECK(json::parse(health.body, nullptr, false)["status"] == "ok");
}

} // namespace

TEST_CASE("bytes that are not UTF-8 get a coded 4xx and serve goes on, without a token",
          "[integration][api]") {
  serve_process serve;
  hostile_bytes_are_coded_errors(serve.port, {});
  CHECK(serve.process.wait_exit(0ms) == std::nullopt);
}

TEST_CASE("bytes that are not UTF-8 get a coded 4xx and serve goes on, with a token",
          "[integration][api]") {
  const std::string token = "a-token-of-24-characters";
  parley::test::temp_file file{token + "\n"};
  serve_process serve{{"--host", "127.0.0.1", "--token-file", file.path()}};
  hostile_bytes_are_coded_errors(serve.port, token);
  // The token is still required where it was.
  check_coded(send_raw(serve.port, request("POST", "/api/v1/agents", invalid_body)),
              401, "E029");
  CHECK(serve.process.wait_exit(0ms) == std::nullopt);
}

TEST_CASE("a 405 says the route's methods in Allow", "[integration][api]") {
  serve_process serve;
  const std::vector<std::pair<std::string, std::string>> cases{
      {"DELETE /api/v1/negotiations", "GET, POST"},
      {"PUT /api/v1/agents", "GET, POST"},
      {"POST /api/v1/agents/alice", "GET, DELETE"},
      {"POST /api/v1/agents/alice/turns", "GET"},
      {"POST /api/v1/agents/alice/inbox", "GET"},
      {"GET /api/v1/rooms", "POST"},
      {"DELETE /api/v1/rooms/r", "GET"},
      {"POST /api/v1/negotiations/" + unknown_id, "GET"},
      {"GET /api/v1/negotiations/" + unknown_id + "/messages", "POST"},
      {"POST /api/v1/stats", "GET"},
      {"GET /api/v1/maintenance/expire", "POST"},
      {"GET /api/v1/demand/submit", "POST"},
      {"POST /api/v1/demands/d", "GET"},
      {"POST /api/v1/channels/c", "GET"},
      {"GET /api/v1/channels/c/messages", "POST"},
      {"POST /api/v1/events/stream", "GET"},
      {"POST /healthz", "GET"},
      {"DELETE /readyz", "GET"},
      {"POST /metrics", "GET"},
      {"POST /", "GET"},
      {"DELETE /assets/app.js", "GET"},
  };
  for (const auto& [line, allow] : cases) {
    auto space = line.find(' ');
    auto a =
        send_raw(serve.port, request(line.substr(0, space), line.substr(space + 1)));
    INFO(line);
    check_coded(a, 405, "E033");
    CHECK(a.header("Allow") == allow);
  }
  CHECK(send_raw(serve.port, request("GET", "/api/v1/agents")).header("Allow").empty());
}

TEST_CASE("a key given twice and an id with a control character are E001",
          "[integration][api]") {
  serve_process serve;
  auto refused = [&serve](const std::string& body, const std::string& field) {
    auto a = send_raw(serve.port, request("POST", "/api/v1/agents", body));
    check_coded(a, 400, "E001");
    auto j = json::parse(a.body, nullptr, false);
    CHECK(j["details"]["field"] == field);
    return j["message"].get<std::string>();
  };
  CHECK(refused(R"({"id":"alice","id":"bob"})", "id") ==
        "id: duplicate key \"id\" at line 1, column 15");
  CHECK_THAT(
      refused("{\"id\":\"alice\",\n \"brain\":{\"kind\":\"rule\",\"kind\":\"llm\"}}",
              "brain.kind"),
      Catch::Contains("line 2, column 25"));
  CHECK_THAT(refused(R"({"id":"a\u0000b"})", "id"),
             Catch::Contains("control character") && Catch::Contains("U+0000"));
  CHECK_THAT(refused(R"({"id":"tab\there"})", "id"), Catch::Contains("U+0009"));
  // Neither was registered; a clean body still is.
  auto list = send_raw(serve.port, request("GET", "/api/v1/agents"));
  CHECK(json::parse(list.body)["agents"].empty());
  CHECK(send_raw(serve.port, request("POST", "/api/v1/agents", R"({"id":"alice"})"))
            .status == 201);
}

TEST_CASE("the agent, overflow and brain-kind errors read well", "[integration][api]") {
  serve_process serve;
  auto message_of = [&serve](const std::string& body) {
    auto a = send_raw(serve.port, request("POST", "/api/v1/agents", body));
    check_coded(a, 400, "E001");
    return json::parse(a.body, nullptr, false)["message"].get<std::string>();
  };
  CHECK(message_of(R"({"id":"a","profile":{"load":1e800}})") ==
        "(document): invalid JSON: number overflow parsing '1e800'");
  CHECK_THAT(message_of(R"({"id":"a","brain":{"kind":"oracle"}})"),
             Catch::Contains("rule | script | llm | external"));
  CHECK_THAT(message_of("{\"id\":\"x\",\"name\":\"\xff\"}"),
             Catch::Contains("\\xFF") && Catch::Contains("line 1, column"));
}

} // namespace integration_hostile_bytes_test
