// The HTTP server of `parley serve` (service/server.hpp) in this process,
// before a handler of the test's own, spoken to in raw bytes over loopback:
// what a request that throws becomes, HEAD, Host, oversized headers and the
// connection cap with its health slot, the accept pause at the open-files
// limit.

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "service/server.hpp"
#include "support/raw_http.hpp"

namespace integration_http_server_test {

using namespace std::chrono_literals;
using parley::test::raw_answer;
using parley::test::raw_connection;
namespace http = parley::service;

namespace {

/// Thrown by a route that is not a std::exception.
struct not_an_exception {};

constexpr auto ok_body = R"({"ok":true})";

/// Answers a GET of `/ok` (and of anything else) with `ok_body`, other
/// methods with 405, `/stream` with an event stream, and throws on
/// `/throw/std` and `/throw/other`; counts the streams it started.
struct test_routes {
  std::shared_ptr<std::atomic<int>> streams_started =
      std::make_shared<std::atomic<int>>(0);

  void operator()(http::request r, http::respond_function respond) const {
    if (r.target == "/throw/std")
      throw std::runtime_error("invalid byte \xff in the body");
    if (r.target == "/throw/other")
      throw not_an_exception{};
    http::response x;
    if (r.target == "/stream" || r.target == "/stream/throws") {
      auto started = streams_started;
      auto throws = r.target == "/stream/throws";
      x.stream = [started, throws](std::shared_ptr<http::event_stream> s) {
        ++*started;
        if (throws)
          throw not_an_exception{};
        s->push(std::make_shared<const std::string>("data: hello\n\n"));
      };
    } else if (r.method != "GET") {
      // As the API's routes: GET only (the server turns HEAD into GET).
      x.status = 405;
      x.body = R"({"error_code":"E033"})";
    } else {
      x.body = ok_body;
    }
    respond(std::move(x));
  }
};

/// A server over test_routes on a free loopback port.
struct test_server {
  explicit test_server(std::size_t max_connections = 10000)
      : server{[&] {
                 http::server::options opts;
                 opts.port = 0;
                 opts.max_connections = max_connections;
                 return opts;
               }(),
               routes} {
    port = server.start();
  }

  test_routes routes;
  http::server server;
  int port = 0;
};

std::string get(const std::string& target, const std::string& method = "GET") {
  return method + " " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
}

/// Sends `request` on a fresh connection and reads the answer.
raw_answer ask(int port, const std::string& request, bool bodyless = false) {
  raw_connection c{port};
  REQUIRE(c.connected());
  REQUIRE(c.send(request));
  return c.read_answer(5s, bodyless);
}

void check_error(const raw_answer& a, int status, const std::string& code) {
  INFO(a.head << a.body);
  CHECK(a.status == status);
  CHECK(a.json()["error_code"] == code);
}

/// Waits (bounded) until no request is in flight.
bool settles(const http::server& s) {
  auto deadline = std::chrono::steady_clock::now() + 5s;
  while (s.in_flight() != 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  return s.in_flight() == 0;
}

} // namespace

TEST_CASE("a route that throws is answered 500 E037 and the server goes on",
          "[integration][http_server]") {
  test_server s;
  auto target = GENERATE(std::string{"/throw/std"}, std::string{"/throw/other"});
  INFO(target);
  raw_connection c{s.port};
  REQUIRE(c.connected());
  REQUIRE(c.send(get(target)));
  auto a = c.read_answer(5s);
  check_error(a, 500, "E037");
  // Nothing of the exception's text (which holds a raw byte) is sent.
  CHECK(a.body.find("invalid byte") == std::string::npos);
  CHECK(a.header("Connection") == "close");
  CHECK(c.closed_by_peer(5s));
  CHECK(settles(s.server));
  auto next = ask(s.port, get("/ok"));
  CHECK(next.status == 200);
  CHECK(next.body == ok_body);
}

TEST_CASE("a stream whose route throws once it starts closes only its connection",
          "[integration][http_server]") {
  test_server s;
  raw_connection c{s.port};
  REQUIRE(c.connected());
  REQUIRE(c.send(get("/stream/throws")));
  // The stream's headers may or may not have gone out before the route
  // threw; either way the connection ends.
  c.read_answer(5s, true);
  CHECK(c.closed_by_peer(5s));
  CHECK(*s.routes.streams_started == 1);
  CHECK(s.server.open_streams() == 0);
  CHECK(ask(s.port, get("/ok")).status == 200);
}

TEST_CASE("HEAD is answered as GET without the body", "[integration][http_server]") {
  test_server s;
  raw_connection c{s.port};
  REQUIRE(c.connected());
  SECTION("a JSON answer: the Content-Length of GET's body, no body") {
    REQUIRE(c.send(get("/ok", "HEAD")));
    auto head = c.read_answer(5s, true);
    CHECK(head.status == 200);
    CHECK(head.header("Content-Length") == std::to_string(std::string{ok_body}.size()));
    CHECK(head.header("Content-Type") == "application/json");
    // No body came: the next answer on the connection starts right away.
    REQUIRE(c.send(get("/ok")));
    auto next = c.read_answer(5s);
    CHECK(next.head.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
    CHECK(next.body == ok_body);
  }
  SECTION("an event stream: its headers only, no stream, then the connection ends") {
    REQUIRE(c.send(get("/stream", "HEAD")));
    auto head = c.read_answer(5s, true);
    CHECK(head.status == 200);
    CHECK(head.header("Content-Type") == "text/event-stream");
    CHECK(head.header("Connection") == "close");
    CHECK(c.closed_by_peer(5s));
    CHECK(*s.routes.streams_started == 0);
    CHECK(s.server.open_streams() == 0);
  }
}

TEST_CASE("an HTTP/1.1 request needs exactly one Host", "[integration][http_server]") {
  test_server s;
  check_error(ask(s.port, "GET /ok HTTP/1.1\r\n\r\n"), 400, "E001");
  check_error(ask(s.port, "GET /ok HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400,
              "E001");
  // HTTP/1.0 has no Host.
  CHECK(ask(s.port, "GET /ok HTTP/1.0\r\n\r\n").status == 200);
  CHECK(ask(s.port, get("/ok")).status == 200);
}

TEST_CASE("headers over the limit are 431 E036", "[integration][http_server]") {
  test_server s;
  raw_connection c{s.port};
  REQUIRE(c.connected());
  REQUIRE(c.send("GET /ok HTTP/1.1\r\nHost: localhost\r\nX-Big: " +
                 std::string(9000, 'a') + "\r\n\r\n"));
  auto a = c.read_answer(5s);
  check_error(a, 431, "E036");
  CHECK(c.closed_by_peer(5s));
  CHECK(ask(s.port, get("/ok")).status == 200);
}

TEST_CASE("past max_connections only the health slot takes a connection",
          "[integration][http_server]") {
  test_server s{2};
  // The kernel queues connections in the order they were made: these two
  // take the ordinary places.
  std::vector<std::unique_ptr<raw_connection>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::make_unique<raw_connection>(s.port));
    REQUIRE(held.back()->connected());
  }
  REQUIRE(held[0]->send(get("/ok")));
  REQUIRE(held[0]->read_answer(5s).status == 200);
  REQUIRE(held[1]->send(get("/ok")));
  REQUIRE(held[1]->read_answer(5s).status == 200);

  SECTION("anything but /healthz and /readyz is 503 E030, and the slot closes") {
    raw_connection c{s.port};
    REQUIRE(c.connected());
    REQUIRE(c.send(get("/api/v1/agents")));
    auto a = c.read_answer(5s);
    check_error(a, 503, "E030");
    CHECK(a.header("Retry-After") == "1");
    CHECK(c.closed_by_peer(5s));
  }
  SECTION("/healthz and /readyz are answered, one request a connection") {
    for (const auto* path : {"/healthz", "/readyz?x=1"}) {
      raw_connection c{s.port};
      REQUIRE(c.connected());
      REQUIRE(c.send(get(path)));
      auto a = c.read_answer(5s);
      CHECK(a.status == 200);
      CHECK(a.header("Connection") == "close");
      CHECK(c.closed_by_peer(5s));
    }
  }
  SECTION("idle connections waiting before a health check do not keep it out") {
    std::vector<std::unique_ptr<raw_connection>> idle;
    for (int i = 0; i < 20; ++i)
      idle.push_back(std::make_unique<raw_connection>(s.port));
    auto start = std::chrono::steady_clock::now();
    CHECK(ask(s.port, get("/healthz")).status == 200);
    CHECK(std::chrono::steady_clock::now() - start < 3s);
  }
  SECTION("a connection that ends makes room again") {
    held.pop_back();
    auto deadline = std::chrono::steady_clock::now() + 5s;
    int status = 0;
    while (status != 200 && std::chrono::steady_clock::now() < deadline)
      status = ask(s.port, get("/api/v1/agents")).status;
    CHECK(status == 200);
  }
}

namespace {

/// Descriptors this process has open.
rlim_t open_fds() {
  return static_cast<rlim_t>(
      std::distance(std::filesystem::directory_iterator{"/proc/self/fd"},
                    std::filesystem::directory_iterator{}));
}

/// CPU seconds this process used so far.
double own_cpu_seconds() {
  rusage x{};
  getrusage(RUSAGE_SELF, &x);
  return static_cast<double>(x.ru_utime.tv_sec + x.ru_stime.tv_sec) +
         static_cast<double>(x.ru_utime.tv_usec + x.ru_stime.tv_usec) / 1e6;
}

/// In a child process (its own descriptor table, its limit raised again):
/// opens `idle` connections to `port` and keeps them, waits `pause`, then
/// asks `/healthz` on a fresh one and writes its status line's first 12
/// bytes to `out`. Only system calls: the parent has threads.
[[noreturn]] void flood_then_ask_health(int port, int idle,
                                        std::chrono::milliseconds pause, int out) {
  rlimit x{};
  getrlimit(RLIMIT_NOFILE, &x);
  x.rlim_cur = x.rlim_max;
  setrlimit(RLIMIT_NOFILE, &x);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  auto connect_one = [&] {
    auto fd = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval limit{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    return fd;
  };
  for (int i = 0; i < idle; ++i)
    connect_one();
  timespec wait{static_cast<time_t>(pause.count() / 1000),
                static_cast<long>(pause.count() % 1000) * 1000000L};
  ::nanosleep(&wait, nullptr);
  auto fd = connect_one();
  const char request[] = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
  ::send(fd, request, sizeof request - 1, MSG_NOSIGNAL);
  char answer[12] = {};
  std::size_t got = 0;
  while (got < sizeof answer) {
    auto n = ::recv(fd, answer + got, sizeof answer - got, 0);
    if (n <= 0)
      break;
    got += static_cast<std::size_t>(n);
  }
  ::write(out, answer, got);
  _exit(0);
}

} // namespace

TEST_CASE("at the open-files limit the server pauses its accepts and its spare "
          "descriptor lets a health check in",
          "[integration][http_server]") {
  test_server s{10000};
  // A whole connection's life first, while descriptors are free: the
  // sanitizers check a type the first time they meet it through a pipe,
  // which they could not open at the limit.
  {
    raw_connection c{s.port};
    REQUIRE(c.connected());
    REQUIRE(c.send("GET /ok HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
    CHECK(c.read_answer(5s).status == 200);
    CHECK(c.closed_by_peer(5s));
  }
  rlimit saved{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &saved) == 0);
  int result[2];
  REQUIRE(::pipe(result) == 0);
  // Room for a few connections only: the rest of the flood meets EMFILE.
  // No assertion until the limit is restored (the sanitizers' first look at
  // a type needs a descriptor).
  rlimit small = saved;
  small.rlim_cur = open_fds() + 8;
  auto lowered = setrlimit(RLIMIT_NOFILE, &small) == 0;
  auto child = lowered ? ::fork() : -1;
  if (child == 0)
    flood_then_ask_health(s.port, 64, 1500ms, result[1]);
  auto before = own_cpu_seconds();
  auto start = std::chrono::steady_clock::now();
  // Measures the CPU the server takes while the flood waits: no condition
  // to poll for.
  std::this_thread::sleep_for(1500ms);
  auto used = own_cpu_seconds() - before;
  auto wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
  ::close(result[1]);
  char answer[13] = {};
  pollfd p{result[0], POLLIN, 0};
  ssize_t got = 0;
  if (child > 0 && ::poll(&p, 1, 10000) > 0)
    got = ::read(result[0], answer, 12);
  ::close(result[0]);
  if (child > 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
  }
  auto restored = setrlimit(RLIMIT_NOFILE, &saved) == 0;
  REQUIRE(lowered);
  REQUIRE(restored);
  REQUIRE(child > 0);
  INFO("the server used " << used << " s of CPU in " << wall.count() << " s");
  CHECK(used / wall.count() < 0.10);
  CHECK(got == 12);
  CHECK(std::string{answer} == "HTTP/1.1 200");
}

} // namespace integration_http_server_test
