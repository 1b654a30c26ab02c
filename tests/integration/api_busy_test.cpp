// A busy runtime answers 503 with Retry-After (E030) and never hangs: the
// HTTP server and routes of `parley serve`, in this process, before a
// gateway that never answers (it leaves every request in its mailbox).

#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/send.hpp"

#include "messages/type_ids.hpp"
#include "service/routes.hpp"
#include "service/server.hpp"
#include "support/api_client.hpp"

namespace integration_api_busy_test {

using namespace std::chrono_literals;
using parley::test::api_client;
using parley::test::openapi_contract;
namespace http = parley::service;

namespace {

caf::actor_system_config& with_types(caf::actor_system_config& cfg) {
  parley::messages::register_types(cfg);
  return cfg;
}

/// Told once the silent gateway holds its first request.
struct arrival {
  std::promise<void> promise;
  std::once_flag once;
};

caf::behavior silent_gateway(caf::event_based_actor* self,
                             std::shared_ptr<arrival> seen) {
  self->set_default_handler(
      [seen](caf::scheduled_actor*, caf::message_view&) -> caf::result<caf::message> {
        std::call_once(seen->once, [&] { seen->promise.set_value(); });
        return caf::skip;
      });
  // A behavior that matches nothing the routes send keeps the actor alive.
  return {[](parley::messages::done_atom) {
  }};
}

/// The routes and server of `parley serve` before the silent gateway.
struct busy_serve {
  busy_serve(std::chrono::milliseconds timeout, std::size_t max_in_flight) {
    http::routes::options route_opts;
    route_opts.timeout = timeout;
    route_opts.max_in_flight = max_in_flight;
    http::server::options server_opts;
    server_opts.port = 0;
    server.emplace(
        server_opts,
        http::routes{
            sys,
            {caf::actor_cast<parley::actors::gateway_actor>(gateway), {}, {}, {}, {}},
            route_opts,
            std::make_shared<std::atomic<bool>>(true)});
    port = server->start();
  }

  ~busy_serve() {
    server.reset();
    caf::anon_send_exit(gateway, caf::exit_reason::user_shutdown);
  }

  busy_serve(const busy_serve&) = delete;
  busy_serve& operator=(const busy_serve&) = delete;

  caf::actor_system_config cfg;
  caf::actor_system sys{with_types(cfg)};
  std::shared_ptr<arrival> seen = std::make_shared<arrival>();
  caf::actor gateway = sys.spawn(silent_gateway, seen);
  std::optional<http::server> server;
  int port = 0;
};

void check_busy(const api_client::answer& a) {
  INFO(a.body.dump());
  CHECK(a.status == 503);
  CHECK(a.body["error_code"] == "E030");
  CHECK(a.retry_after == "1");
}

} // namespace

TEST_CASE("a runtime that does not answer within the request timeout is 503 E030",
          "[integration]") {
  busy_serve serve{50ms, 16};
  openapi_contract contract;
  api_client api{serve.port, contract};
  auto start = std::chrono::steady_clock::now();
  check_busy(api.get("/api/v1/agents"));
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  // The connection and the server stay usable.
  check_busy(api.get("/api/v1/agents/alice"));
  CHECK(api.get("/healthz").status == 200);
}

TEST_CASE("requests over serve.max_in_flight are 503 E030 at once", "[integration]") {
  busy_serve serve{60s, 1};
  // The first request waits for the gateway, holding the only place.
  auto held = std::async(std::launch::async, [port = serve.port] {
    httplib::Client client{"127.0.0.1", port};
    client.set_read_timeout(30);
    return client.Get("/api/v1/agents") ? 1 : 0;
  });
  REQUIRE(serve.seen->promise.get_future().wait_for(10s) == std::future_status::ready);
  openapi_contract contract;
  api_client api{serve.port, contract};
  auto start = std::chrono::steady_clock::now();
  check_busy(api.get("/api/v1/agents"));
  check_busy(
      api.post("/api/v1/agents", {{"id", "bob"}, {"brain", {{"kind", "external"}}}}));
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  // Stopping the server lets the held request go unanswered (and perhaps a
  // refusal whose write has not completed yet): its connection closes.
  CHECK(serve.server->stop(0ms) >= 1);
  CHECK(held.get() == 0);
}

} // namespace integration_api_busy_test
