#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <csignal>
#include <string>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/binary_serializer.hpp"
#include "caf/io/middleman.hpp"
#include "caf/message_view.hpp"
#include "caf/others.hpp"
#include "caf/result.hpp"
#include "caf/scoped_actor.hpp"

#include "cluster/room_host.hpp"
// Every wire header: the echo check walks the whole type-ID block.
#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"
#include "messages/api.hpp"
#include "messages/atoms.hpp"
#include "messages/bridge.hpp"
#include "messages/channel.hpp"
#include "messages/channel_event.hpp"
#include "messages/channel_messages.hpp"
#include "messages/cluster_event.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/decision.hpp"
#include "messages/error_code.hpp"
#include "messages/event_sink.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/negotiation_settings.hpp"
#include "messages/proposal.hpp"
#include "messages/store.hpp"
#include "messages/type_ids.hpp"
#include "support/node_process.hpp"
#include "support/process.hpp"

namespace integration_node_test {

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

/// The bytes of `x` in CAF's binary format: the types of its elements, then
/// their values.
std::vector<char> bytes_of(caf::actor_system& sys, caf::message x) {
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  REQUIRE(!sink(x));
  return buf;
}

constexpr auto first_id = caf::id_block::parley::begin;
constexpr auto block_size = caf::id_block::parley::end - caf::id_block::parley::begin;

/// A default value of every wire type, each in a message of its own, with
/// its type's name. Only this is written per type: the round trip below is
/// one function for all of them, which keeps this file quick to compile.
template <caf::type_id_t... Is>
std::vector<std::pair<std::string, caf::message>>
one_of_each(std::integer_sequence<caf::type_id_t, Is...>) {
  return {{caf::type_name<typename caf::type_by_id<first_id + Is>::type>::value,
           caf::make_message(typename caf::type_by_id<first_id + Is>::type{})}...};
}

/// Sends `sent` to the node's echo actor; what comes back, or an empty
/// message when nothing does.
caf::message echoed(caf::actor_system& sys, caf::scoped_actor& self,
                    const caf::actor& echo, const caf::message& sent) {
  caf::message back;
  self->request(echo, 5s, sent)
      .receive([&](caf::error& err) { FAIL(sys.render(err)); },
               caf::others >> [&](caf::message_view& x) -> caf::result<caf::message> {
                 back = x.copy_content_to_message();
                 return caf::message{};
               });
  return back;
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
  auto all = one_of_each(std::make_integer_sequence<caf::type_id_t, block_size>{});
  REQUIRE(all.size() == static_cast<std::size_t>(block_size));
  for (const auto& [name, sent] : all) {
    INFO(name);
    CHECK(bytes_of(client.sys, echoed(client.sys, self, echo, sent)) ==
          bytes_of(client.sys, sent));
  }
}

} // namespace integration_node_test
