// `parley serve` under a small open-files limit (prlimit): a flood of idle
// connections past it leaves serve idle, not spinning on EMFILE, and
// `/healthz` still answers on a fresh connection.

#include <chrono>
#include <csignal>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/process.hpp"
#include "support/raw_http.hpp"
#include "support/temp_store.hpp"

namespace integration_connection_limits_test {

using namespace std::chrono_literals;
using parley::test::raw_connection;

namespace {

constexpr const char* prlimit_binary = "/usr/bin/prlimit";

/// User plus system CPU seconds of process `pid` so far (/proc/PID/stat).
double cpu_seconds(pid_t pid) {
  std::ifstream in{"/proc/" + std::to_string(pid) + "/stat"};
  std::string stat{std::istreambuf_iterator<char>{in},
                   std::istreambuf_iterator<char>{}};
  // Fields after the command's closing parenthesis: state is field 3, utime
  // 14 and stime 15.
  std::istringstream fields{stat.substr(stat.rfind(')') + 2)};
  std::vector<std::string> xs;
  for (std::string x; fields >> x;)
    xs.push_back(x);
  REQUIRE(xs.size() > 12);
  auto ticks = std::stod(xs[11]) + std::stod(xs[12]);
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

/// The cap serve printed: "... at most N connections ...".
long printed_cap(const std::string& output) {
  auto at = output.find("at most ");
  REQUIRE(at != std::string::npos);
  return std::stol(output.substr(at + 8));
}

/// Raises this process's soft open-files limit to `wanted` when the hard
/// limit allows; returns whether it is at least that now.
bool can_open(rlim_t wanted) {
  rlimit x{};
  getrlimit(RLIMIT_NOFILE, &x);
  if (x.rlim_cur >= wanted)
    return true;
  if (x.rlim_max < wanted)
    return false;
  x.rlim_cur = wanted;
  return setrlimit(RLIMIT_NOFILE, &x) == 0;
}

} // namespace

TEST_CASE("idle connections past the open-files limit leave serve idle and /healthz "
          "answering",
          "[integration][connection_limits]") {
  constexpr int limit = 128;
  constexpr int flood = 3 * limit;
  if (access(prlimit_binary, X_OK) != 0 || !can_open(flood + 256)) {
    WARN("prlimit is missing or this process may not open " << flood + 256
                                                            << " files: skipped");
    return;
  }
  parley::test::temp_store store;
  parley::test::background_process serve{
      {prlimit_binary,
       "--nofile=" + std::to_string(limit) + ":" + std::to_string(limit), PARLEY_BINARY,
       "serve", "--port", "0", "--store", store.path(), "--create-store"}};
  auto port = parley::test::wait_until_serving(serve);

  std::vector<std::unique_ptr<raw_connection>> idle;
  for (int i = 0; i < flood; ++i) {
    idle.push_back(std::make_unique<raw_connection>(port));
    if (!idle.back()->connected())
      break;
  }
  CHECK(idle.size() == static_cast<std::size_t>(flood));

  auto before = cpu_seconds(serve.pid());
  auto start = std::chrono::steady_clock::now();
  // Measures the CPU serve takes over two seconds of the flood: it waits,
  // so no poll for a condition fits here.
  std::this_thread::sleep_for(2s);
  auto used = cpu_seconds(serve.pid()) - before;
  auto wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
  INFO("serve used " << used << " s of CPU in " << wall.count() << " s");
  CHECK(used / wall.count() < 0.10);

  raw_connection health{port};
  REQUIRE(health.connected());
  REQUIRE(health.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"));
  auto answer = health.read_answer(10s);
  CHECK(answer.status == 200);

  INFO(serve.output());
  auto cap = printed_cap(serve.output());
  CHECK(cap >= 1);
  CHECK(cap < limit);

  // Serve still runs and stops cleanly.
  serve.signal(SIGTERM);
  auto code = serve.wait_exit(10s);
  REQUIRE(code);
  CHECK(*code == 0);
}

} // namespace integration_connection_limits_test
