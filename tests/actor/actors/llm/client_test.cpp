#include "actors/llm/client.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "caf/event_based_actor.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/llm/circuit_breaker.hpp"
#include "support/actor_fixture.hpp"
#include "messages/llm.hpp"

namespace actor_actors_llm_client_test {

using namespace std::chrono_literals;
using parley::test::actor_fixture;
namespace msg = parley::messages;

namespace {

/// The provider as the client's attempt performer sees it: the attempts it
/// got, and the outcomes it reports, in order.
struct scripted_provider {
  std::vector<msg::llm_attempt> outcomes;
  std::vector<msg::llm_request> attempts;
};

parley::actors::llm_performer_actor::behavior_type
provider(parley::actors::llm_performer_actor::pointer self, scripted_provider* p) {
  return {[self, p](const msg::llm_request& x) {
    auto outcome = p->outcomes.at(p->attempts.size());
    outcome.call_id = x.call_id;
    p->attempts.push_back(x);
    self->send(caf::actor_cast<parley::actors::llm_client_actor>(self->current_sender()),
               outcome);
  }};
}

parley::actors::llm_caller_actor::behavior_type
caller(parley::actors::llm_caller_actor::pointer,
       std::vector<msg::llm_response>* answers) {
  return {[answers](const msg::llm_response& x) {
    answers->push_back(x);
  }};
}

msg::llm_attempt http(std::int32_t status,
                      caf::optional<std::int64_t> retry_after_ms = caf::none) {
  return msg::llm_attempt{0, msg::error_code::none, {}, status, "body", retry_after_ms};
}

/// A client whose attempts the scripted provider answers, and a caller.
struct client_under_test {
  actor_fixture fx;
  scripted_provider script;
  std::vector<msg::llm_response> answers;
  parley::actors::llm_caller_actor caller_actor;
  parley::actors::llm_client_actor client;

  explicit client_under_test(
      std::vector<msg::llm_attempt> outcomes, std::int32_t max_concurrent_calls = 64,
      std::shared_ptr<parley::actors::metrics::llm_metrics> metrics = nullptr) {
    script.outcomes = std::move(outcomes);
    parley::actors::llm::llm_client_options o;
    o.max_concurrent_calls = max_concurrent_calls;
    o.metrics = std::move(metrics);
    o.performer = fx.sys.spawn(provider, &script);
    fx.keep(o.performer);
    caller_actor = fx.sys.spawn(caller, &answers);
    fx.keep(caller_actor);
    client = parley::actors::llm::spawn_llm_client(fx.sys, o);
    fx.keep(client);
  }

  void call(std::uint64_t call_id, std::string body) {
    caf::send_as(caller_actor, client, msg::llm_request{call_id, std::move(body)});
    fx.run();
  }
};

} // namespace

TEST_CASE("a retry waits for retry-after on the actor clock", "[actor]") {
  client_under_test t{{http(429, 3000), http(200)}};
  t.call(7, "hello");
  CHECK(t.script.attempts.size() == 1);
  t.fx.advance(2999ms);
  CHECK(t.script.attempts.size() == 1);
  CHECK(t.answers.empty());
  t.fx.advance(1ms);
  REQUIRE(t.script.attempts.size() == 2);
  CHECK(t.script.attempts[1].body == "hello");
  REQUIRE(t.answers.size() == 1);
  CHECK(t.answers[0].call_id == 7);
  CHECK(t.answers[0].code == msg::error_code::none);
  CHECK(t.answers[0].body == "body");
}

TEST_CASE("without retry-after the backoff doubles on the actor clock", "[actor]") {
  client_under_test t{{http(500), http(503), http(200)}};
  t.call(1, "x");
  t.fx.advance(249ms);
  CHECK(t.script.attempts.size() == 1);
  t.fx.advance(1ms);
  CHECK(t.script.attempts.size() == 2);
  t.fx.advance(499ms);
  CHECK(t.script.attempts.size() == 2);
  t.fx.advance(1ms);
  CHECK(t.script.attempts.size() == 3);
  REQUIRE(t.answers.size() == 1);
  CHECK(t.answers[0].code == msg::error_code::none);
}

TEST_CASE("a call waiting for its retry keeps its concurrency slot", "[actor]") {
  client_under_test t{{http(429, 1000), http(200), http(200)}, 1};
  t.call(1, "first");
  t.call(2, "second");
  CHECK(t.script.attempts.size() == 1);
  t.fx.advance(1000ms);
  REQUIRE(t.script.attempts.size() == 3);
  CHECK(t.script.attempts[1].body == "first");
  CHECK(t.script.attempts[2].body == "second");
  REQUIRE(t.answers.size() == 2);
  CHECK(t.answers[0].call_id == 1);
  CHECK(t.answers[1].call_id == 2);
}

TEST_CASE("retries exhausted answer E003 with the last HTTP error", "[actor]") {
  client_under_test t{{http(500), http(500), http(500)}};
  t.call(3, "x");
  t.fx.advance(250ms);
  t.fx.advance(500ms);
  CHECK(t.script.attempts.size() == 3);
  REQUIRE(t.answers.size() == 1);
  CHECK(t.answers[0].call_id == 3);
  CHECK(t.answers[0].code == msg::error_code::llm_unavailable);
  CHECK(t.answers[0].error == "HTTP 500: body");
}

TEST_CASE("the client records its calls, errors, latency and breaker state",
          "[actor][metrics]") {
  using state = parley::actors::llm::circuit_breaker::state;
  auto m = std::make_shared<parley::actors::metrics::llm_metrics>();
  auto in = [&](state x) {
    return m->breakers[static_cast<std::size_t>(x)].value();
  };
  client_under_test t{{http(400), http(400), http(400), http(200)}, 64, m};
  t.call(1, "x");
  CHECK(in(state::closed) == 1);
  for (std::uint64_t i = 2; i <= 3; ++i)
    t.call(i, "x");
  CHECK(m->calls.value() == 3);
  CHECK(m->unavailable.value() == 3);
  CHECK(in(state::open) == 1);
  CHECK(in(state::closed) == 0);
  t.call(4, "refused");
  CHECK(m->circuit_rejected.value() == 1);
  CHECK(m->unavailable.value() == 4);
  t.fx.advance(30000ms);
  t.call(5, "trial");
  REQUIRE(t.answers.size() == 5);
  CHECK(t.answers[4].code == msg::error_code::none);
  CHECK(in(state::closed) == 1);
  CHECK(in(state::open) + in(state::half_open) == 0);
  CHECK(m->calls.value() == 5);
  CHECK(m->timeouts.value() == 0);
  // The refused call is not timed: the four that reached the provider are.
  CHECK(m->latency_ms.read().count() == 4);
}

} // namespace actor_actors_llm_client_test
