#include "actors/negotiation/replay.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/negotiation/rules.hpp"

namespace unit_actors_negotiation_replay_test {

using parley::actors::negotiation::differences;
using parley::actors::negotiation::effects;
using parley::actors::negotiation::fingerprint_of;
using parley::actors::negotiation::move_fingerprint;
using parley::actors::negotiation::opening;
using parley::actors::negotiation::record_after;
using parley::actors::negotiation::reuse_text;
using parley::actors::negotiation::round_of;
using parley::actors::negotiation::rules;
using parley::messages::agent_accept;
using parley::messages::agent_counter;
using parley::messages::agent_proposal;
using parley::messages::agent_reject;
using parley::messages::negotiation_record;
using parley::messages::negotiation_status;
using parley::messages::proposal;
using parley::messages::round_action;

namespace {

constexpr std::int64_t t0 = 1'700'000'000'000;

proposal offer(std::int64_t amount) {
  proposal x;
  x.amount = amount;
  x.currency = "GBP";
  x.description = "Logo design";
  x.terms.text = R"({"deadline":"friday"})";
  return x;
}

agent_counter counter_msg(const std::string& from, const std::string& message_id,
                          std::int64_t amount) {
  return {message_id, "neg_1", from, offer(amount), "too high"};
}

/// A negotiation between alice and bob that keeps the record as it was
/// right after each move, by message id.
struct recorded {
  effects opened;
  rules r;
  std::map<std::string, negotiation_record> after;

  explicit recorded(std::int32_t max_rounds = 5)
      : r(
            [&] {
              opening x;
              x.id = "neg_1";
              x.room_id = "room-a";
              x.message_id = "m-open";
              x.initiator = "alice";
              x.responder = "bob";
              x.proposal = offer(100000);
              x.settings.max_rounds = max_rounds;
              return x;
            }(),
            t0, opened) {
    after["m-open"] = r.record();
  }

  template <class Message> void send(const Message& x, std::int64_t at) {
    effects out;
    r.on_message(x, at, out);
    REQUIRE(out.changed());
    after[x.message_id] = r.record();
  }

  /// Checks that every move's record is rebuilt from `later`.
  void check_rebuilt_from(const negotiation_record& later) const {
    for (const auto& [message_id, record] : after) {
      INFO("after " << message_id);
      auto rebuilt = record_after(later, message_id);
      REQUIRE(rebuilt);
      CHECK(*rebuilt == record);
      CHECK(rebuilt->rounds.back().message_id == message_id);
    }
  }
};

} // namespace

TEST_CASE("the record right after each move is rebuilt from a later record as the "
          "rules had it",
          "[unit]") {
  SECTION("counters, then an accept") {
    recorded n;
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    n.send(counter_msg("alice", "m-a1", 95000), t0 + 2000);
    n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);
    n.send(agent_accept{"m-a2", "neg_1", "alice"}, t0 + 4000);
    REQUIRE(n.r.record().status == negotiation_status::accepted);
    n.check_rebuilt_from(n.r.record());
  }
  SECTION("a counter, then a reject with its reason") {
    recorded n;
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    n.send(agent_reject{"m-a1", "neg_1", "alice", "too far apart"}, t0 + 2000);
    REQUIRE(n.r.record().status_reason == "too far apart");
    n.check_rebuilt_from(n.r.record());
  }
  SECTION("the responder accepts the opening at once") {
    recorded n;
    n.send(agent_accept{"m-b1", "neg_1", "bob"}, t0 + 1000);
    n.check_rebuilt_from(n.r.record());
  }
  SECTION("the counter past the round limit, kept as the expiring round") {
    recorded n{3};
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    n.send(counter_msg("alice", "m-a1", 95000), t0 + 2000);
    n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);
    REQUIRE(n.r.record().status == negotiation_status::expired);
    REQUIRE(n.r.record().rounds.size() == 4);
    n.check_rebuilt_from(n.r.record());
  }
  SECTION("an expiry by timer after the moves changes none of their records") {
    recorded n;
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    effects out;
    n.r.on_timer(n.opened.arm->generation, t0 + 31000, out);
    REQUIRE(n.r.record().status == negotiation_status::expired);
    n.check_rebuilt_from(n.r.record());
  }
  SECTION("a resumed negotiation, from its stored record") {
    recorded n;
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    effects out;
    auto resumed = rules::resume(n.r.record(), t0 + 2000, out);
    effects moved;
    resumed.on_message(counter_msg("alice", "m-a1", 90000), t0 + 2500, moved);
    REQUIRE(moved.changed());
    n.after["m-a1"] = resumed.record();
    n.check_rebuilt_from(resumed.record());
  }
}

TEST_CASE("no record is rebuilt for a message id no round carries", "[unit]") {
  recorded n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  CHECK_FALSE(record_after(n.r.record(), "m-zz"));
  CHECK(round_of(n.r.record(), "m-zz") == nullptr);
  auto record = n.r.record();
  record.rounds[0].message_id.clear();
  CHECK_FALSE(record_after(record, ""));
  REQUIRE(round_of(n.r.record(), "m-b1") != nullptr);
  CHECK(round_of(n.r.record(), "m-b1")->round == 2);
}

TEST_CASE("a move and the round it made have the same fingerprint", "[unit]") {
  recorded n;
  auto counter = counter_msg("bob", "m-b1", 80000);
  n.send(counter, t0 + 1000);
  agent_reject reject{"m-a1", "neg_1", "alice", "no"};
  n.send(reject, t0 + 2000);
  const auto& rounds = n.r.record().rounds;
  CHECK(differences(
            fingerprint_of(rounds[0]),
            fingerprint_of(agent_proposal{"m-open", "neg_1", "alice", offer(100000)}))
            .empty());
  CHECK(differences(fingerprint_of(rounds[1]), fingerprint_of(counter)).empty());
  CHECK(differences(fingerprint_of(rounds[2]), fingerprint_of(reject)).empty());
  // An accept's round holds the proposal it took; the accept carries none.
  recorded m;
  agent_accept accept{"m-b1", "neg_1", "bob"};
  m.send(accept, t0 + 1000);
  CHECK(differences(fingerprint_of(m.r.record().rounds[1]), fingerprint_of(accept))
            .empty());
}

TEST_CASE("differences name what a reused message id's move changes, in order",
          "[unit]") {
  auto first = fingerprint_of(counter_msg("bob", "m-1", 80000));
  CHECK(differences(first, first).empty());
  auto other = counter_msg("alice", "m-1", 80000);
  CHECK(differences(first, fingerprint_of(other)) == std::vector<std::string>{"from"});
  other = counter_msg("bob", "m-1", 79000);
  other.proposal.currency = "EUR";
  other.proposal.escrow = true;
  other.proposal.description = "Two logos";
  other.proposal.terms.text = "{}";
  other.reason = "final";
  CHECK(differences(first, fingerprint_of(other)) ==
        std::vector<std::string>{"proposal.amount", "proposal.currency",
                                 "proposal.escrow", "proposal.description",
                                 "proposal.terms", "reason"});
  CHECK(differences(first, fingerprint_of(agent_accept{"m-1", "neg_1", "alice"})) ==
        std::vector<std::string>{"from", "action", "proposal", "reason"});
  CHECK(differences(fingerprint_of(agent_reject{"m-1", "neg_1", "bob", ""}),
                    fingerprint_of(agent_accept{"m-1", "neg_1", "bob"})) ==
        std::vector<std::string>{"action"});
}

TEST_CASE("the reuse text names what differs", "[unit]") {
  CHECK(reuse_text("m-1", {"from"}) ==
        "Message id m-1 was already used for another move (from differs)");
  CHECK(reuse_text("m-1", {"from", "proposal.amount"}) ==
        "Message id m-1 was already used for another move (from, proposal.amount "
        "differ)");
}

} // namespace unit_actors_negotiation_replay_test
