#include "actors/channel/recovery.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_channel_recovery_test {

using namespace parley::actors::channel;
using parley::messages::channel_settings;

namespace {

using names = std::vector<std::string>;

/// The defaults (docs/protocols/channels.md, "Settings"): stuck after more than 120 s,
/// at most 3 attempts.
const channel_settings defaults{};

/// A channel that entered `status` at 0 and waits for `missing` of `awaited`.
check_input at(channel_status status, std::int64_t now_ms, names missing = {"b"},
               std::int32_t awaited = 3) {
  check_input x;
  x.status = status;
  x.stuck_since_ms = 0;
  x.now_ms = now_ms;
  x.awaited = awaited;
  x.missing = std::move(missing);
  return x;
}

} // namespace

TEST_CASE("a channel is stuck only after more than max_stuck_ms", "[unit][channel]") {
  for (auto status : {channel_status::collecting, channel_status::negotiating}) {
    auto d = check_channel(at(status, 120000), defaults);
    CHECK(d.reason == stuck_reason::healthy);
    CHECK(d.action == recovery_action::nothing);
    CHECK(d.attempt == 0);
    CHECK(check_channel(at(status, 120001), defaults).action !=
          recovery_action::nothing);
  }
  auto later = at(channel_status::collecting, 240000);
  later.stuck_since_ms = 120000; // recovered at 120 s: a fresh 120 s
  CHECK(check_channel(later, defaults).action == recovery_action::nothing);
}

TEST_CASE("only collecting and negotiating can be stuck", "[unit][channel]") {
  for (auto status : {channel_status::created, channel_status::broadcasting,
                      channel_status::aggregating, channel_status::proposal_sent,
                      channel_status::finalized, channel_status::force_finalized,
                      channel_status::failed}) {
    auto d = check_channel(at(status, 1000000), defaults);
    CHECK(d.reason == stuck_reason::healthy);
    CHECK(d.action == recovery_action::nothing);
  }
}

TEST_CASE("a channel nobody is missing from is healthy", "[unit][channel]") {
  auto d = check_channel(at(channel_status::collecting, 1000000, {}), defaults);
  CHECK(d.action == recovery_action::nothing);
}

TEST_CASE("stuck in collecting re-asks only the missing", "[unit][channel]") {
  auto x = at(channel_status::collecting, 125000, {"b", "d"}, 4);
  x.attempts = 1;
  auto d = check_channel(x, defaults);
  CHECK(d.reason == stuck_reason::stuck_in_collecting);
  CHECK(d.action == recovery_action::rebroadcast);
  CHECK(d.recipients == names{"b", "d"});
  CHECK(d.attempt == 2);
}

TEST_CASE("re-asked and still missing: continue with the offers that arrived",
          "[unit][channel]") {
  auto x = at(channel_status::collecting, 125000, {"b"}, 3);
  x.reasked = true;
  auto d = check_channel(x, defaults);
  CHECK(d.reason == stuck_reason::missing_responses);
  CHECK(d.action == recovery_action::continue_partial);
  CHECK(d.recipients.empty());
  CHECK(d.attempt == 1);
}

TEST_CASE("re-asked and nobody answered: re-ask again", "[unit][channel]") {
  auto x = at(channel_status::collecting, 125000, {"a", "b"}, 2);
  x.reasked = true;
  auto d = check_channel(x, defaults);
  CHECK(d.reason == stuck_reason::stuck_in_collecting);
  CHECK(d.action == recovery_action::rebroadcast);
  CHECK(d.recipients == names{"a", "b"});
}

TEST_CASE("stuck in negotiating forces the evaluation", "[unit][channel]") {
  auto x = at(channel_status::negotiating, 125000, {"c"}, 3);
  x.reasked = true; // ignored outside collecting
  auto d = check_channel(x, defaults);
  CHECK(d.reason == stuck_reason::stuck_in_negotiating);
  CHECK(d.action == recovery_action::force_evaluate);
  CHECK(d.recipients.empty());
  CHECK(d.attempt == 1);
}

TEST_CASE("after max_recovery_attempts a stuck channel fails", "[unit][channel]") {
  auto x = at(channel_status::negotiating, 125000);
  x.attempts = 2;
  CHECK(check_channel(x, defaults).action == recovery_action::force_evaluate);
  CHECK(check_channel(x, defaults).attempt == 3);
  x.attempts = 3;
  auto d = check_channel(x, defaults);
  CHECK(d.reason == stuck_reason::stuck_in_negotiating);
  CHECK(d.action == recovery_action::fail);
  CHECK(d.attempt == 3);
  SECTION("but a healthy one does not") {
    x.now_ms = 100000;
    CHECK(check_channel(x, defaults).action == recovery_action::nothing);
  }
  SECTION("with no attempts allowed, the first stuck check fails") {
    auto none = defaults;
    none.max_recovery_attempts = 0;
    x.attempts = 0;
    CHECK(check_channel(x, none).action == recovery_action::fail);
  }
}

TEST_CASE("stuck reasons have the state checker's names", "[unit][channel]") {
  CHECK(to_string(stuck_reason::stuck_in_collecting) == "stuck_in_collecting");
  CHECK(to_string(stuck_reason::stuck_in_negotiating) == "stuck_in_negotiating");
  CHECK(to_string(stuck_reason::missing_responses) == "missing_responses");
  stuck_reason x = stuck_reason::healthy;
  REQUIRE(from_string("missing_responses", x));
  CHECK(x == stuck_reason::missing_responses);
  CHECK_FALSE(from_string("timeout", x));
}

} // namespace unit_actors_channel_recovery_test
