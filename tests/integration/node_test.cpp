#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <csignal>
#include <string>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/binary_serializer.hpp"
#include "caf/io/middleman.hpp"
#include "caf/scoped_actor.hpp"

#include "cluster/room_host.hpp"
#include "messages/type_ids.hpp"
#include "support/node_process.hpp"
#include "support/process.hpp"

using namespace std::chrono_literals;
using Catch::Matchers::Contains;
using parley::test::background_process;
using parley::test::node_process;
using parley::test::write_temp_file;

namespace {

const std::string parley_binary = PARLEY_BINARY;
const std::string examples = std::string{PARLEY_SOURCE_DIR} + "/examples/scenarios/";

/// A scenario whose only negotiation stays open for a minute: the responder
/// never answers.
std::string quiet_scenario() {
  return write_temp_file("quiet.json", R"({
  "config": {"negotiation": {"round_timeout_ms": 60000, "total_timeout_ms": 120000}},
  "agents": [{"id": "a", "brain": "script", "script": []},
             {"id": "b", "brain": "script", "script": []}],
  "rooms": [{"id": "r", "participants": ["a", "b"]}],
  "negotiations": [{"room": "r", "initiator": "a", "responder": "b",
                    "proposal": {"amount": 1000}}]
})");
}

/// Starts a client playing the quiet scenario on `node`, and waits until its
/// negotiation runs there.
std::unique_ptr<background_process> quiet_client(const node_process& node) {
  auto client = std::make_unique<background_process>(std::vector<std::string>{
      parley_binary, "run", quiet_scenario(), "--remote", node.address});
  REQUIRE(client->wait_for_output("\"type\":\"negotiation.started\"", 10s));
  return client;
}

/// Milliseconds from now until `client` prints E021, at most `limit`.
std::int64_t ms_until_reported(const background_process& client,
                               std::chrono::milliseconds limit) {
  auto start = std::chrono::steady_clock::now();
  REQUIRE(client.wait_for_output("\"code\":\"E021\"", limit));
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

TEST_CASE("a negotiation placed on a node reaches agreement with agents here",
          "[integration]") {
  node_process node;
  background_process client{{parley_binary, "run", examples + "scripted_counter.json",
                             "--remote", node.address}};
  REQUIRE(client.wait_exit(20s) == 0);
  CHECK_THAT(client.output(), Contains(R"("type":"negotiation.agreed")"));
  CHECK_THAT(client.output(), Contains(R"("accepted":1,"errors":0)"));
}

TEST_CASE("a killed node is reported within 1 s and the caller carries on",
          "[integration]") {
  node_process node;
  auto client = quiet_client(node);
  node.process.signal(SIGKILL);
  CHECK(ms_until_reported(*client, 5s) < 1000);
  REQUIRE(client->wait_exit(10s) == 0);
  CHECK_THAT(client->output(), Contains("is unavailable"));
  CHECK_THAT(client->output(), Contains(R"("errors":1)"));
}

TEST_CASE("a frozen node is detected within 3 s", "[integration]") {
  node_process node;
  auto client = quiet_client(node);
  node.process.signal(SIGSTOP);
  auto elapsed = ms_until_reported(*client, 10s);
  CHECK(elapsed < 3000);
  REQUIRE(client->wait_exit(10s) == 0);
  node.process.signal(SIGKILL);
}

TEST_CASE("SIGTERM stops a node cleanly within 5 s, reporting its negotiations",
          "[integration]") {
  node_process node;
  auto client = quiet_client(node);
  node.process.signal(SIGTERM);
  CHECK(node.process.wait_exit(5s) == 0);
  CHECK_THAT(node.process.output(), Contains("SIGTERM"));
  REQUIRE(client->wait_exit(10s) == 0);
  CHECK_THAT(client->output(), Contains("E021"));
}

namespace {

template <class T> std::vector<char> bytes_of(caf::actor_system& sys, T x) {
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  REQUIRE(!sink(x));
  return buf;
}

constexpr auto first_id = caf::id_block::parley::begin;
constexpr auto block_size = caf::id_block::parley::end - caf::id_block::parley::begin;

/// Sends a `T` to the node's echo actor and checks what comes back.
struct echo_check {
  caf::actor_system& sys;
  caf::scoped_actor& self;
  caf::actor echo;

  template <caf::type_id_t Id>
  void operator()(std::integral_constant<caf::type_id_t, Id>) {
    using type = typename caf::type_by_id<Id>::type;
    INFO(caf::type_name<type>::value);
    auto sent = bytes_of(sys, type{});
    bool answered = false;
    self->request(echo, 5s, type{})
        .receive(
            [&](type& back) {
              answered = true;
              CHECK(bytes_of(sys, back) == sent);
            },
            [&](caf::error& err) { FAIL(sys.render(err)); });
    CHECK(answered);
  }
};

template <caf::type_id_t... Is>
void check_all(echo_check& check, std::integer_sequence<caf::type_id_t, Is...>) {
  (check(std::integral_constant<caf::type_id_t, first_id + Is>{}), ...);
}

} // namespace

TEST_CASE("every registered wire type crosses to another node and back",
          "[integration]") {
  node_process node;
  parley::test::network_system client;
  auto host = node.connect(client.sys);
  caf::scoped_actor self{client.sys};
  caf::actor echo;
  self->request(host, 5s, parley::messages::echo_atom::value)
      .receive([&](caf::actor& x) { echo = std::move(x); },
               [&](caf::error& err) { FAIL(client.sys.render(err)); });
  REQUIRE(echo);
  echo_check check{client.sys, self, echo};
  check_all(check, std::make_integer_sequence<caf::type_id_t, block_size>{});
}
