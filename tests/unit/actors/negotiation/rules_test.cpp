#include "actors/negotiation/rules.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include <catch2/catch.hpp>

namespace unit_actors_negotiation_rules_test {

using parley::actors::negotiation::convergence_score;
using parley::actors::negotiation::effects;
using parley::actors::negotiation::opening;
using parley::actors::negotiation::party;
using parley::actors::negotiation::round_limit_reason;
using parley::actors::negotiation::round_timeout_reason;
using parley::actors::negotiation::rules;
using parley::actors::negotiation::total_timeout_reason;
using parley::messages::agent_accept;
using parley::messages::agent_counter;
using parley::messages::agent_proposal;
using parley::messages::agent_reject;
using parley::messages::error_code;
using parley::messages::negotiation_event_kind;
using parley::messages::negotiation_record;
using parley::messages::negotiation_round;
using parley::messages::negotiation_settings;
using parley::messages::negotiation_status;
using parley::messages::proposal;
using parley::messages::round_action;
using parley::messages::severity;

namespace {

/// The negotiation opens at this instant (Unix ms); every other time is t0 + n.
constexpr std::int64_t t0 = 1'700'000'000'000;

proposal offer(std::int64_t amount) {
  proposal x;
  x.amount = amount;
  x.currency = "GBP";
  x.escrow = true;
  x.description = "Logo design";
  x.terms.text = R"({"deadline":"friday"})";
  return x;
}

opening logo_opening(negotiation_settings settings = {}) {
  opening x;
  x.id = "neg_1";
  x.room_id = "room-a";
  x.intent_id = "intent-1";
  x.message_id = "m-open";
  x.initiator = "alice";
  x.responder = "bob";
  x.proposal = offer(100000);
  x.settings = settings;
  return x;
}

negotiation_settings with_rounds(std::int32_t max_rounds) {
  negotiation_settings x;
  x.max_rounds = max_rounds;
  return x;
}

negotiation_settings with_timeouts(std::int64_t round_ms, std::int64_t total_ms) {
  negotiation_settings x;
  x.round_timeout_ms = round_ms;
  x.total_timeout_ms = total_ms;
  return x;
}

agent_counter counter_msg(std::string from, std::string message_id, std::int64_t amount,
                          std::string reason = "too high") {
  agent_counter x;
  x.message_id = std::move(message_id);
  x.negotiation_id = "neg_1";
  x.from_agent = std::move(from);
  x.proposal = offer(amount);
  x.reason = std::move(reason);
  return x;
}

agent_accept accept_msg(std::string from, std::string message_id) {
  agent_accept x;
  x.message_id = std::move(message_id);
  x.negotiation_id = "neg_1";
  x.from_agent = std::move(from);
  return x;
}

agent_reject reject_msg(std::string from, std::string message_id, std::string reason) {
  agent_reject x;
  x.message_id = std::move(message_id);
  x.negotiation_id = "neg_1";
  x.from_agent = std::move(from);
  x.reason = std::move(reason);
  return x;
}

/// One negotiation between alice (initiator) and bob (responder) over a logo,
/// opened at t0 for 100000 minor units.
struct negotiation {
  effects opened;
  rules r;

  explicit negotiation(negotiation_settings settings = {})
      : r(logo_opening(settings), t0, opened) {}

  template <class Message> effects send(const Message& x, std::int64_t at) {
    effects out;
    r.on_message(x, at, out);
    return out;
  }

  effects fire(std::uint64_t generation, std::int64_t at) {
    effects out;
    r.on_timer(generation, at, out);
    return out;
  }
};

/// Checks that `out` refused the input with `sev` and `code`, and did nothing
/// else.
void require_refused(const effects& out, severity sev, error_code code) {
  REQUIRE(out.refused);
  CHECK(out.refused->severity == sev);
  CHECK(out.refused->code == code);
  CHECK_FALSE(out.event);
  CHECK_FALSE(out.relay_to);
  CHECK_FALSE(out.notify_parties);
  CHECK_FALSE(out.arm);
  CHECK_FALSE(out.changed());
}

/// Checks that `out` did nothing at all (ignored input).
void require_nothing(const effects& out) {
  CHECK_FALSE(out.refused);
  CHECK_FALSE(out.event);
  CHECK_FALSE(out.relay_to);
  CHECK_FALSE(out.notify_parties);
  CHECK_FALSE(out.arm);
}

} // namespace

// -- opening -------------------------------------------------------------------

TEST_CASE("opening a negotiation records round 1 as the initiator's proposal",
          "[unit]") {
  negotiation n;
  const auto& rec = n.r.record();
  CHECK(rec.id == "neg_1");
  CHECK(rec.room_id == "room-a");
  CHECK(rec.intent_id == "intent-1");
  CHECK(rec.status == negotiation_status::proposed);
  CHECK(rec.initiator == "alice");
  CHECK(rec.responder == "bob");
  CHECK(rec.current_proposal == offer(100000));
  CHECK_FALSE(rec.final_proposal);
  REQUIRE(rec.rounds.size() == 1);
  CHECK(rec.rounds[0] ==
        negotiation_round{1, "alice", offer(100000), round_action::propose, "", t0,
                          "m-open"});
  CHECK(rec.max_rounds == 5);
  CHECK(rec.round_timeout_ms == 30000);
  CHECK(rec.total_timeout_ms == 120000);
  CHECK(rec.convergence_score == 0.0);
  CHECK(rec.created_at == t0);
  CHECK(rec.updated_at == t0);
  CHECK(rec.expires_at == t0 + 120000);
  CHECK(rec.status_reason.empty());
  CHECK(n.r.to_move() == party::responder);
  CHECK_FALSE(n.r.terminal());
}

TEST_CASE("opening emits started, relays to the responder and arms one timer",
          "[unit]") {
  negotiation n;
  CHECK_FALSE(n.opened.refused);
  CHECK(n.opened.event == negotiation_event_kind::started);
  CHECK(n.opened.relay_to == party::responder);
  CHECK_FALSE(n.opened.notify_parties);
  REQUIRE(n.opened.arm);
  CHECK(n.opened.arm->due_ms == t0 + 30000);
  CHECK(n.r.timer_pending());
}

TEST_CASE("expires_at is created_at plus the total timeout", "[unit]") {
  negotiation n{with_timeouts(30000, 90000)};
  CHECK(n.r.record().created_at == t0);
  CHECK(n.r.record().expires_at == t0 + 90000);
}

TEST_CASE("the opening timer is due at the nearer of the round and total deadlines",
          "[unit]") {
  SECTION("round deadline first") {
    negotiation n{with_timeouts(30000, 120000)};
    REQUIRE(n.opened.arm);
    CHECK(n.opened.arm->due_ms == t0 + 30000);
  }
  SECTION("total deadline first") {
    negotiation n{with_timeouts(60000, 45000)};
    REQUIRE(n.opened.arm);
    CHECK(n.opened.arm->due_ms == t0 + 45000);
  }
}

TEST_CASE("the opening takes the settings' numbers and incentive split", "[unit]") {
  negotiation_settings s;
  s.max_rounds = 12;
  s.round_timeout_ms = 15000;
  s.total_timeout_ms = 600000;
  s.incentive_split = {0.6, 0.2, 0.1, 0.1};
  negotiation n{s};
  const auto& rec = n.r.record();
  CHECK(rec.max_rounds == 12);
  CHECK(rec.round_timeout_ms == 15000);
  CHECK(rec.total_timeout_ms == 600000);
  CHECK(rec.incentive_split.agent == 0.6);
  CHECK(rec.incentive_split.broker == 0.2);
  CHECK(rec.expires_at == t0 + 600000);
}

// -- validate_opening -----------------------------------------------------------

TEST_CASE("a valid opening passes validation", "[unit]") {
  CHECK(rules::validate_opening(logo_opening()).empty());
  CHECK(rules::validate_opening(logo_opening(with_rounds(1))).empty());
  CHECK(rules::validate_opening(logo_opening(with_rounds(20))).empty());
}

TEST_CASE("validate_opening refuses what cannot open a negotiation", "[unit]") {
  auto x = logo_opening();
  SECTION("the same agent on both sides") {
    x.responder = "alice";
    CHECK(rules::validate_opening(x) ==
          "initiator and responder must be different agents, both are \"alice\"");
  }
  SECTION("an empty negotiation id") {
    x.id.clear();
    CHECK(rules::validate_opening(x) == "negotiation id is empty");
  }
  SECTION("a missing party") {
    x.responder.clear();
    CHECK(rules::validate_opening(x) == "initiator and responder are required");
  }
  SECTION("a zero amount") {
    x.proposal.amount = 0;
    CHECK(rules::validate_opening(x) ==
          "proposal: amount must be a positive integer in minor units, got 0");
  }
  SECTION("a lower-case currency") {
    x.proposal.currency = "gbp";
    CHECK(rules::validate_opening(x).rfind("proposal: currency", 0) == 0);
  }
  SECTION("terms that are not an object") {
    x.proposal.terms.text = "[1,2]";
    CHECK(rules::validate_opening(x) == "proposal: terms must be a JSON object");
  }
  SECTION("max_rounds 0") {
    x.settings.max_rounds = 0;
    CHECK(rules::validate_opening(x) == "max_rounds must be within 1..20, got 0");
  }
  SECTION("max_rounds 21") {
    x.settings.max_rounds = 21;
    CHECK(rules::validate_opening(x) == "max_rounds must be within 1..20, got 21");
  }
  SECTION("a zero round timeout") {
    x.settings.round_timeout_ms = 0;
    CHECK(rules::validate_opening(x) ==
          "round_timeout_ms must be within 1..31536000000, got 0");
    x.settings.round_timeout_ms = 31'536'000'001; // a remote caller's, unchecked
    CHECK(rules::validate_opening(x) ==
          "round_timeout_ms must be within 1..31536000000, got 31536000001");
  }
  SECTION("a negative total timeout") {
    x.settings.total_timeout_ms = -1;
    CHECK(rules::validate_opening(x) ==
          "total_timeout_ms must be within 1..31536000000, got -1");
  }
  SECTION("an incentive split that does not sum to 1") {
    x.settings.incentive_split.agent = 0.9;
    CHECK(rules::validate_opening(x).rfind("incentive_split: ", 0) == 0);
  }
}

// -- counters -----------------------------------------------------------------

TEST_CASE("a counter appends a round and moves to countering", "[unit]") {
  negotiation n;
  auto out = n.send(counter_msg("bob", "m-b1", 80000, "too high"), t0 + 10000);
  CHECK_FALSE(out.refused);
  CHECK(out.event == negotiation_event_kind::updated);
  CHECK(out.relay_to == party::initiator);
  CHECK_FALSE(out.notify_parties);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::countering);
  CHECK(rec.current_proposal == offer(80000));
  REQUIRE(rec.rounds.size() == 2);
  CHECK(rec.rounds[1] == negotiation_round{2, "bob", offer(80000),
                                           round_action::counter, "too high",
                                           t0 + 10000, "m-b1"});
  CHECK(rec.updated_at == t0 + 10000);
  CHECK(rec.created_at == t0);
  CHECK(n.r.to_move() == party::initiator);
}

TEST_CASE("counters alternate between the parties, numbering the rounds", "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  auto out = n.send(counter_msg("alice", "m-a1", 90000, "meet me halfway"), t0 + 2000);
  CHECK(out.event == negotiation_event_kind::updated);
  CHECK(out.relay_to == party::responder);
  n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);
  const auto& rec = n.r.record();
  REQUIRE(rec.rounds.size() == 4);
  CHECK(rec.rounds[2] == negotiation_round{3, "alice", offer(90000),
                                           round_action::counter, "meet me halfway",
                                           t0 + 2000, "m-a1"});
  CHECK(rec.rounds[3].round == 4);
  CHECK(rec.rounds[3].from_agent == "bob");
  CHECK(rec.current_proposal.amount == 85000);
  CHECK(rec.status == negotiation_status::countering);
  CHECK(n.r.to_move() == party::initiator);
}

TEST_CASE("answer terms carry the other side's first offer and the distinct offers",
          "[unit]") {
  negotiation n;
  // alice opened at 100000; bob is handed it with nothing before.
  auto opening_terms = n.r.terms_for(party::responder);
  CHECK(opening_terms.round == 1);
  CHECK_FALSE(opening_terms.their_first);
  CHECK(opening_terms.my_distinct_offers == 0);
  CHECK(opening_terms.their_distinct_offers == 1);
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  n.send(counter_msg("alice", "m-a1", 100000), t0 + 2000); // the same offer again
  n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);
  auto alice = n.r.terms_for(party::initiator);
  CHECK(alice.round == 4);
  REQUIRE(alice.their_first);
  CHECK(alice.their_first->amount == 80000);
  CHECK(alice.my_distinct_offers == 1);
  CHECK(alice.their_distinct_offers == 2);
  REQUIRE(alice.my_last_amount);
  CHECK(*alice.my_last_amount == 100000);
  auto bob = n.r.terms_for(party::responder);
  REQUIRE(bob.their_first);
  CHECK(bob.their_first->amount == 100000);
  CHECK(bob.my_distinct_offers == 2);
  CHECK(bob.their_distinct_offers == 1);
}

TEST_CASE("an agent_proposal mid-negotiation counts as a counter", "[unit]") {
  negotiation n;
  agent_proposal x;
  x.message_id = "m-b1";
  x.negotiation_id = "neg_1";
  x.from_agent = "bob";
  x.proposal = offer(70000);
  auto out = n.send(x, t0 + 4000);
  CHECK(out.event == negotiation_event_kind::updated);
  CHECK(out.relay_to == party::initiator);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::countering);
  CHECK(rec.current_proposal == offer(70000));
  REQUIRE(rec.rounds.size() == 2);
  CHECK(rec.rounds[1] == negotiation_round{2, "bob", offer(70000),
                                           round_action::counter, "", t0 + 4000,
                                           "m-b1"});
  CHECK(rec.convergence_score == 0.7);
}

// -- round limit --------------------------------------------------------------

TEST_CASE("with 5 rounds, the counter that would make round 6 expires the negotiation",
          "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);   // round 2
  n.send(counter_msg("alice", "m-a1", 95000), t0 + 2000); // round 3
  n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);   // round 4
  n.send(counter_msg("alice", "m-a2", 90000), t0 + 4000); // round 5
  REQUIRE(n.r.record().rounds.size() == 5);
  auto out = n.send(counter_msg("bob", "m-b3", 88000), t0 + 5000);
  CHECK_FALSE(out.refused);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(out.notify_parties);
  CHECK_FALSE(out.relay_to);
  CHECK_FALSE(out.arm);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::expired);
  CHECK(rec.status_reason == "Round limit reached — 5 rounds");
  // Kept as the last round, so that its message id is recognised, but not
  // taken up: the current proposal and the convergence stay those of round 5.
  REQUIRE(rec.rounds.size() == 6);
  CHECK(rec.rounds[5] == negotiation_round{6, "bob", offer(88000),
                                           round_action::counter, "too high", t0 + 5000,
                                           "m-b3"});
  CHECK(rec.current_proposal.amount == 90000);
  CHECK(rec.convergence_score == convergence_score(90000, 85000));
  CHECK(rec.updated_at == t0 + 5000);
  CHECK_FALSE(rec.final_proposal);
  CHECK(n.r.terminal());
}

TEST_CASE("with max_rounds 1 the first counter expires the negotiation", "[unit]") {
  negotiation n{with_rounds(1)};
  auto out = n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(out.notify_parties);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::expired);
  CHECK(rec.status_reason == "Round limit reached — 1 round");
  REQUIRE(rec.rounds.size() == 2);
  CHECK(rec.rounds[0].action == round_action::propose);
  CHECK(rec.rounds[1].action == round_action::counter);
  CHECK(rec.rounds[1].message_id == "m-b1");
  CHECK(rec.current_proposal.amount == 100000);
}

TEST_CASE("with max_rounds 1 the responder can still accept the opening", "[unit]") {
  negotiation n{with_rounds(1)};
  auto out = n.send(accept_msg("bob", "m-b1"), t0 + 1000);
  CHECK(out.event == negotiation_event_kind::agreed);
  CHECK(n.r.record().status == negotiation_status::accepted);
  CHECK(n.r.record().rounds.size() == 2);
}

TEST_CASE("with max_rounds 20, 19 counters fit and the 20th expires", "[unit]") {
  negotiation n{with_rounds(20)};
  for (int i = 1; i <= 19; ++i) {
    auto from = i % 2 == 1 ? "bob" : "alice";
    auto out = n.send(counter_msg(from, "m-" + std::to_string(i), 50000 + i * 1000),
                      t0 + i * 1000);
    REQUIRE(out.event == negotiation_event_kind::updated);
  }
  CHECK(n.r.record().rounds.size() == 20);
  CHECK(n.r.record().rounds.back().round == 20);
  auto out = n.send(counter_msg("alice", "m-20", 80000), t0 + 20000);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(n.r.record().status_reason == "Round limit reached — 20 rounds");
  CHECK(n.r.record().rounds.size() == 21);
  CHECK(n.r.record().rounds.back().message_id == "m-20");
}

TEST_CASE("an accept at the round limit is still taken (it is not a counter)",
          "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  n.send(counter_msg("alice", "m-a1", 95000), t0 + 2000);
  n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);
  n.send(counter_msg("alice", "m-a2", 90000), t0 + 4000);
  auto out = n.send(accept_msg("bob", "m-b3"), t0 + 5000);
  CHECK(out.event == negotiation_event_kind::agreed);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::accepted);
  REQUIRE(rec.rounds.size() == 6);
  CHECK(rec.rounds[5].round == 6);
  CHECK(rec.rounds[5].action == round_action::accept);
  REQUIRE(rec.final_proposal);
  CHECK(rec.final_proposal->amount == 90000);
}

// -- accept and reject ------------------------------------------------------------

TEST_CASE("accepting takes the current proposal as final with convergence 1",
          "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 10000);
  auto out = n.send(accept_msg("alice", "m-a1"), t0 + 20000);
  CHECK_FALSE(out.refused);
  CHECK(out.event == negotiation_event_kind::agreed);
  CHECK(out.relay_to == party::responder);
  CHECK_FALSE(out.notify_parties);
  CHECK_FALSE(out.arm);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::accepted);
  REQUIRE(rec.final_proposal);
  CHECK(*rec.final_proposal == offer(80000));
  CHECK(rec.current_proposal == offer(80000));
  CHECK(rec.convergence_score == 1.0);
  REQUIRE(rec.rounds.size() == 3);
  CHECK(rec.rounds[2] == negotiation_round{3, "alice", offer(80000),
                                           round_action::accept, "", t0 + 20000,
                                           "m-a1"});
  CHECK(rec.updated_at == t0 + 20000);
  CHECK(rec.status_reason.empty());
  CHECK(n.r.terminal());
}

TEST_CASE("the responder may accept the opening proposal directly", "[unit]") {
  negotiation n;
  auto out = n.send(accept_msg("bob", "m-b1"), t0 + 3000);
  CHECK(out.event == negotiation_event_kind::agreed);
  CHECK(out.relay_to == party::initiator);
  const auto& rec = n.r.record();
  REQUIRE(rec.final_proposal);
  CHECK(*rec.final_proposal == offer(100000));
  CHECK(rec.convergence_score == 1.0);
  REQUIRE(rec.rounds.size() == 2);
  CHECK(rec.rounds[1] == negotiation_round{2, "bob", offer(100000),
                                           round_action::accept, "", t0 + 3000, "m-b1"});
}

TEST_CASE("rejecting appends a reject round with the reason", "[unit]") {
  negotiation n;
  auto out = n.send(reject_msg("bob", "m-b1", "too expensive"), t0 + 5000);
  CHECK_FALSE(out.refused);
  CHECK(out.event == negotiation_event_kind::rejected);
  CHECK(out.relay_to == party::initiator);
  CHECK_FALSE(out.notify_parties);
  CHECK_FALSE(out.arm);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::rejected);
  CHECK(rec.status_reason == "too expensive");
  CHECK_FALSE(rec.final_proposal);
  CHECK(rec.convergence_score == 0.0);
  REQUIRE(rec.rounds.size() == 2);
  CHECK(rec.rounds[1] == negotiation_round{2, "bob", offer(100000),
                                           round_action::reject, "too expensive",
                                           t0 + 5000, "m-b1"});
  CHECK(rec.updated_at == t0 + 5000);
  CHECK(n.r.terminal());
}

TEST_CASE("the initiator may reject the responder's counter", "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 40000), t0 + 1000);
  auto out = n.send(reject_msg("alice", "m-a1", "far too low"), t0 + 2000);
  CHECK(out.event == negotiation_event_kind::rejected);
  CHECK(out.relay_to == party::responder);
  const auto& rec = n.r.record();
  CHECK(rec.status_reason == "far too low");
  REQUIRE(rec.rounds.size() == 3);
  CHECK(rec.rounds[2].from_agent == "alice");
  CHECK(rec.rounds[2].proposal.amount == 40000);
  CHECK(rec.convergence_score == 0.4);
}

// -- convergence --------------------------------------------------------------

TEST_CASE("convergence follows the two sides' latest amounts", "[unit]") {
  negotiation n;
  CHECK(n.r.record().convergence_score == 0.0); // no responder offer yet
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  CHECK(n.r.record().convergence_score == 0.8); // 1 - 20000/100000
  n.send(counter_msg("alice", "m-a1", 90000), t0 + 2000);
  CHECK(n.r.record().convergence_score == 0.89); // 1 - 10000/90000 = 0.888…
  n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);
  CHECK(n.r.record().convergence_score == 0.94); // 1 - 5000/90000 = 0.944…
  n.send(counter_msg("alice", "m-a2", 85000), t0 + 4000);
  CHECK(n.r.record().convergence_score == 1.0); // same amount on both sides
}

TEST_CASE("convergence_score is 1 - gap / larger amount, to two decimals", "[unit]") {
  CHECK(convergence_score(100000, 80000) == 0.8);
  CHECK(convergence_score(80000, 100000) == 0.8);
  CHECK(convergence_score(500, 500) == 1.0);
  CHECK(convergence_score(3, 1) == 0.33);      // 0.333…
  CHECK(convergence_score(3, 2) == 0.67);      // 0.666…
  CHECK(convergence_score(8, 1) == 0.13);      // 0.125 rounds half up
  CHECK(convergence_score(1000, 1) == 0.0);    // 0.001
  CHECK(convergence_score(1000, 994) == 0.99); // 0.994
}

TEST_CASE("convergence_score is 0 when an amount is not positive", "[unit]") {
  CHECK(convergence_score(0, 100) == 0.0);
  CHECK(convergence_score(100, 0) == 0.0);
  CHECK(convergence_score(-50, 100) == 0.0);
  CHECK(convergence_score(100, -50) == 0.0);
}

// -- refusals -----------------------------------------------------------------

TEST_CASE("messages for an ended negotiation are dropped with warning E016", "[unit]") {
  negotiation n;
  n.send(accept_msg("bob", "m-b1"), t0 + 1000);
  const auto before = n.r.record();
  SECTION("a counter") {
    auto out = n.send(counter_msg("alice", "m-a1", 90000), t0 + 2000);
    require_refused(out, severity::warning, error_code::negotiation_not_active);
    CHECK(out.refused->message ==
          "Received message for non-active negotiation neg_1 (accepted); dropped");
  }
  SECTION("an accept") {
    require_refused(n.send(accept_msg("alice", "m-a1"), t0 + 2000), severity::warning,
                    error_code::negotiation_not_active);
  }
  SECTION("a reject") {
    require_refused(n.send(reject_msg("alice", "m-a1", "no"), t0 + 2000),
                    severity::warning, error_code::negotiation_not_active);
  }
  CHECK(n.r.record() == before);
  CHECK(n.r.record().status == negotiation_status::accepted);
}

TEST_CASE("a message for another negotiation id is dropped with warning E015",
          "[unit]") {
  negotiation n;
  const auto before = n.r.record();
  auto x = counter_msg("bob", "m-b1", 80000);
  x.negotiation_id = "neg_2";
  auto out = n.send(x, t0 + 1000);
  require_refused(out, severity::warning, error_code::negotiation_not_found);
  CHECK(out.refused->message == "Message for unknown negotiation \"neg_2\" dropped");
  CHECK(n.r.record() == before);
}

TEST_CASE("a message without message_id is refused with error E001", "[unit]") {
  negotiation n;
  const auto before = n.r.record();
  require_refused(n.send(counter_msg("bob", "", 80000), t0 + 1000), severity::error,
                  error_code::invalid_request);
  require_refused(n.send(accept_msg("bob", ""), t0 + 1000), severity::error,
                  error_code::invalid_request);
  require_refused(n.send(reject_msg("bob", "", "no"), t0 + 1000), severity::error,
                  error_code::invalid_request);
  CHECK(n.r.record() == before);
  CHECK(n.r.to_move() == party::responder);
}

TEST_CASE("a replayed move is ignored with warning E011", "[unit]") {
  negotiation n;
  SECTION("the opening proposal delivered again") {
    const auto before = n.r.record();
    agent_proposal again{"m-open", "neg_1", "alice", offer(100000)};
    auto out = n.send(again, t0 + 1000);
    require_refused(out, severity::warning, error_code::duplicate_message);
    CHECK(out.refused->message == "Duplicate message m-open ignored");
    CHECK(n.r.record() == before);
    CHECK_FALSE(n.r.terminal());
  }
  SECTION("a counter delivered twice") {
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    const auto before = n.r.record();
    auto out = n.send(counter_msg("bob", "m-b1", 80000), t0 + 1001);
    require_refused(out, severity::warning, error_code::duplicate_message);
    CHECK(n.r.record() == before);
    CHECK(n.r.to_move() == party::initiator);
  }
}

TEST_CASE("a message id reused for another move is refused with error E035 and "
          "changes nothing",
          "[unit]") {
  negotiation n;
  SECTION("the opening's own message id taken by an accept") {
    const auto before = n.r.record();
    auto out = n.send(accept_msg("bob", "m-open"), t0 + 1000);
    require_refused(out, severity::error, error_code::message_id_reused);
    CHECK(out.refused->message ==
          "Message id m-open was already used for another move (from, action, "
          "proposal differ)");
    CHECK(n.r.record() == before);
    CHECK_FALSE(n.r.terminal());
  }
  SECTION("the other party reusing an id already seen") {
    n.send(counter_msg("bob", "m-x", 80000), t0 + 1000);
    const auto before = n.r.record();
    auto out = n.send(counter_msg("alice", "m-x", 80000), t0 + 2000);
    require_refused(out, severity::error, error_code::message_id_reused);
    CHECK(out.refused->message ==
          "Message id m-x was already used for another move (from differs)");
    CHECK(n.r.record() == before);
  }
  SECTION("the same party with another amount") {
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    n.send(counter_msg("alice", "m-a1", 90000), t0 + 2000);
    const auto before = n.r.record();
    require_refused(n.send(counter_msg("bob", "m-b1", 85000), t0 + 3000),
                    severity::error, error_code::message_id_reused);
    CHECK(n.r.record() == before);
    CHECK(n.r.to_move() == party::responder);
  }
}

TEST_CASE("a message from a non-party is refused with error E013", "[unit]") {
  negotiation n;
  const auto before = n.r.record();
  auto out = n.send(counter_msg("carol", "m-c1", 80000), t0 + 1000);
  require_refused(out, severity::error, error_code::not_a_party);
  CHECK(out.refused->message == "\"carol\" is not a party to negotiation neg_1");
  require_refused(n.send(accept_msg("carol", "m-c2"), t0 + 1000), severity::error,
                  error_code::not_a_party);
  CHECK(n.r.record() == before);
}

TEST_CASE("acting out of turn is refused with error E014 and changes nothing",
          "[unit]") {
  negotiation n;
  SECTION("the initiator counters its own proposal") {
    const auto before = n.r.record();
    auto out = n.send(counter_msg("alice", "m-a1", 90000), t0 + 1000);
    require_refused(out, severity::error, error_code::out_of_turn);
    CHECK(out.refused->message == "\"alice\" acted out of turn: it is bob's move");
    CHECK(n.r.record() == before);
    CHECK(n.r.to_move() == party::responder);
  }
  SECTION("the responder counters twice in a row") {
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    const auto before = n.r.record();
    require_refused(n.send(counter_msg("bob", "m-b2", 75000), t0 + 2000),
                    severity::error, error_code::out_of_turn);
    CHECK(n.r.record() == before);
    CHECK(n.r.to_move() == party::initiator);
  }
  SECTION("the initiator accepts its own opening proposal") {
    const auto before = n.r.record();
    require_refused(n.send(accept_msg("alice", "m-a1"), t0 + 1000), severity::error,
                    error_code::out_of_turn);
    CHECK(n.r.record() == before);
    CHECK_FALSE(n.r.terminal());
  }
  SECTION("the responder accepts its own counter") {
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
    const auto before = n.r.record();
    require_refused(n.send(accept_msg("bob", "m-b2"), t0 + 2000), severity::error,
                    error_code::out_of_turn);
    CHECK(n.r.record() == before);
    CHECK_FALSE(n.r.terminal());
  }
  SECTION("the initiator rejects when it is the responder's turn") {
    const auto before = n.r.record();
    require_refused(n.send(reject_msg("alice", "m-a1", "changed my mind"), t0 + 1000),
                    severity::error, error_code::out_of_turn);
    CHECK(n.r.record() == before);
    CHECK_FALSE(n.r.terminal());
  }
}

TEST_CASE("a refused out-of-turn message does not burn its message id", "[unit]") {
  negotiation n;
  require_refused(n.send(counter_msg("alice", "m-1", 90000), t0 + 1000),
                  severity::error, error_code::out_of_turn);
  auto out = n.send(counter_msg("bob", "m-1", 80000), t0 + 2000);
  CHECK(out.event == negotiation_event_kind::updated);
}

TEST_CASE("an invalid counter proposal is refused with error E017", "[unit]") {
  negotiation n;
  const auto before = n.r.record();
  auto x = counter_msg("bob", "m-b1", 80000);
  SECTION("amount 0") {
    x.proposal.amount = 0;
  }
  SECTION("a negative amount") {
    x.proposal.amount = -500;
  }
  SECTION("a lower-case currency") {
    x.proposal.currency = "gbp";
  }
  SECTION("a four-letter currency") {
    x.proposal.currency = "GBPX";
  }
  SECTION("terms that are an array") {
    x.proposal.terms.text = "[1,2]";
  }
  SECTION("terms that are a string") {
    x.proposal.terms.text = "\"friday\"";
  }
  SECTION("empty terms text") {
    x.proposal.terms.text = "";
  }
  auto out = n.send(x, t0 + 1000);
  require_refused(out, severity::error, error_code::invalid_proposal);
  CHECK(out.refused->message.rfind("Counter refused: ", 0) == 0);
  CHECK(n.r.record() == before);
  CHECK(n.r.to_move() == party::responder);
}

TEST_CASE("counter terms that only start like an object are refused with E017",
          "[unit]") {
  // A json_object is only valid when it holds a JSON object; "{" followed by
  // garbage is not one (the JSON mapping would silently write it as {}).
  negotiation n;
  const auto before = n.r.record();
  auto x = counter_msg("bob", "m-b1", 80000);
  x.proposal.terms.text = "{not json";
  auto out = n.send(x, t0 + 1000);
  INFO("the counter was " << (out.event ? "applied" : "not applied")
                          << "; the record's current terms are now "
                          << n.r.record().current_proposal.terms.text);
  CHECK(out.refused.has_value());
  CHECK(n.r.record() == before);
  if (out.refused)
    CHECK(out.refused->code == error_code::invalid_proposal);
}

TEST_CASE("a corrected counter may reuse the id of a refused invalid one", "[unit]") {
  negotiation n;
  require_refused(n.send(counter_msg("bob", "m-b1", 0), t0 + 1000), severity::error,
                  error_code::invalid_proposal);
  auto out = n.send(counter_msg("bob", "m-b1", 80000), t0 + 2000);
  CHECK(out.event == negotiation_event_kind::updated);
  CHECK(n.r.record().rounds.size() == 2);
}

// -- timers -------------------------------------------------------------------

TEST_CASE("a counter keeps the earlier pending timer instead of arming another",
          "[unit]") {
  negotiation n;
  REQUIRE(n.opened.arm);
  auto first = *n.opened.arm;
  auto out = n.send(counter_msg("bob", "m-b1", 80000), t0 + 10000);
  CHECK(out.event == negotiation_event_kind::updated);
  CHECK_FALSE(out.arm);
  CHECK(n.r.timer_pending());
  // The first timer fires at its due time, before the new round deadline
  // (t0 + 40000): it re-arms for that deadline with a new generation.
  auto early = n.fire(first.generation, t0 + 30000);
  CHECK_FALSE(early.event);
  CHECK_FALSE(early.refused);
  REQUIRE(early.arm);
  CHECK(early.arm->due_ms == t0 + 40000);
  CHECK(early.arm->generation != first.generation);
  CHECK(n.r.record().status == negotiation_status::countering);
  CHECK(n.r.record().updated_at == t0 + 10000);
  // The re-armed timer expires the negotiation at the moved deadline.
  auto due = n.fire(early.arm->generation, t0 + 40000);
  CHECK(due.event == negotiation_event_kind::expired);
  CHECK(n.r.record().status_reason == "Round timeout — no response within 30 seconds");
}

TEST_CASE("the round timeout fires at exactly the deadline, not 1 ms before",
          "[unit]") {
  negotiation n;
  REQUIRE(n.opened.arm);
  auto early = n.fire(n.opened.arm->generation, t0 + 29999);
  CHECK_FALSE(early.event);
  CHECK(n.r.record().status == negotiation_status::proposed);
  REQUIRE(early.arm);
  CHECK(early.arm->due_ms == t0 + 30000);
  auto out = n.fire(early.arm->generation, t0 + 30000);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(out.notify_parties);
  CHECK_FALSE(out.relay_to);
  CHECK_FALSE(out.arm);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::expired);
  CHECK(rec.status_reason == "Round timeout — no response within 30 seconds");
  CHECK(rec.updated_at == t0 + 30000);
  CHECK(rec.rounds.size() == 1);
  CHECK_FALSE(n.r.timer_pending());
}

TEST_CASE("counters every 25 s keep rounds alive until the 2-minute total timeout",
          "[unit]") {
  negotiation n{with_rounds(10)};
  REQUIRE(n.opened.arm);
  auto timer = *n.opened.arm;
  CHECK(timer.due_ms == t0 + 30000);

  CHECK_FALSE(n.send(counter_msg("bob", "m-b1", 80000), t0 + 25000).arm);
  auto fired = n.fire(timer.generation, t0 + 30000);
  REQUIRE(fired.arm);
  CHECK(fired.arm->due_ms == t0 + 55000);
  timer = *fired.arm;

  CHECK_FALSE(n.send(counter_msg("alice", "m-a1", 95000), t0 + 50000).arm);
  fired = n.fire(timer.generation, t0 + 55000);
  REQUIRE(fired.arm);
  CHECK(fired.arm->due_ms == t0 + 80000);
  timer = *fired.arm;

  CHECK_FALSE(n.send(counter_msg("bob", "m-b2", 85000), t0 + 75000).arm);
  fired = n.fire(timer.generation, t0 + 80000);
  REQUIRE(fired.arm);
  CHECK(fired.arm->due_ms == t0 + 105000);
  timer = *fired.arm;

  CHECK_FALSE(n.send(counter_msg("alice", "m-a2", 90000), t0 + 100000).arm);
  fired = n.fire(timer.generation, t0 + 105000);
  REQUIRE(fired.arm);
  CHECK(fired.arm->due_ms == t0 + 120000); // the total deadline comes first now
  timer = *fired.arm;
  CHECK_FALSE(fired.event);
  CHECK(n.r.record().status == negotiation_status::countering);

  auto out = n.fire(timer.generation, t0 + 120000);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(out.notify_parties);
  const auto& rec = n.r.record();
  CHECK(rec.status == negotiation_status::expired);
  CHECK(rec.status_reason == "Total timeout — negotiation exceeded 2 minutes");
  CHECK(rec.updated_at == t0 + 120000);
  CHECK(rec.updated_at == rec.expires_at);
  CHECK(rec.rounds.size() == 5);
}

TEST_CASE("a total timeout shorter than the round timeout expires first", "[unit]") {
  negotiation n{with_timeouts(30000, 20000)};
  REQUIRE(n.opened.arm);
  CHECK(n.opened.arm->due_ms == t0 + 20000);
  auto out = n.fire(n.opened.arm->generation, t0 + 20000);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(n.r.record().status_reason ==
        "Total timeout — negotiation exceeded 20 seconds");
}

TEST_CASE("the total timeout fires at exactly the deadline, not 1 ms before",
          "[unit]") {
  negotiation n{with_timeouts(30000, 20000)};
  REQUIRE(n.opened.arm);
  auto early = n.fire(n.opened.arm->generation, t0 + 19999);
  CHECK_FALSE(early.event);
  CHECK(n.r.record().status == negotiation_status::proposed);
  REQUIRE(early.arm);
  CHECK(early.arm->due_ms == t0 + 20000);
  auto out = n.fire(early.arm->generation, t0 + 20000);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(n.r.record().updated_at == t0 + 20000);
}

TEST_CASE("when both deadlines fall together the round timeout is the reason",
          "[unit]") {
  SECTION("at the opening") {
    negotiation n{with_timeouts(60000, 60000)};
    REQUIRE(n.opened.arm);
    CHECK(n.opened.arm->due_ms == t0 + 60000);
    auto out = n.fire(n.opened.arm->generation, t0 + 60000);
    CHECK(out.event == negotiation_event_kind::expired);
    CHECK(n.r.record().status_reason == "Round timeout — no response within 1 minute");
  }
  SECTION("after a counter moved the round deadline onto the total deadline") {
    negotiation n{with_timeouts(30000, 50000)};
    REQUIRE(n.opened.arm);
    n.send(counter_msg("bob", "m-b1", 80000), t0 + 20000); // round due t0 + 50000
    auto early = n.fire(n.opened.arm->generation, t0 + 30000);
    REQUIRE(early.arm);
    CHECK(early.arm->due_ms == t0 + 50000);
    auto out = n.fire(early.arm->generation, t0 + 50000);
    CHECK(out.event == negotiation_event_kind::expired);
    CHECK(n.r.record().status_reason ==
          "Round timeout — no response within 30 seconds");
  }
}

TEST_CASE("a timer with a stale generation is ignored", "[unit]") {
  negotiation n;
  REQUIRE(n.opened.arm);
  auto first = n.opened.arm->generation;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 10000);
  auto early = n.fire(first, t0 + 30000);
  REQUIRE(early.arm);
  // The first timer again (e.g. a duplicate) long after every deadline.
  require_nothing(n.fire(first, t0 + 200000));
  CHECK(n.r.record().status == negotiation_status::countering);
  CHECK(n.r.timer_pending());
  // A generation never issued is ignored as well.
  require_nothing(n.fire(early.arm->generation + 7, t0 + 200000));
  CHECK(n.r.record().status == negotiation_status::countering);
  // The current one still works.
  CHECK(n.fire(early.arm->generation, t0 + 40000).event ==
        negotiation_event_kind::expired);
}

TEST_CASE("a timer that fires after the negotiation ended is ignored", "[unit]") {
  negotiation n;
  REQUIRE(n.opened.arm);
  SECTION("after an accept") {
    n.send(accept_msg("bob", "m-b1"), t0 + 10000);
  }
  SECTION("after a reject") {
    n.send(reject_msg("bob", "m-b1", "no"), t0 + 10000);
  }
  const auto before = n.r.record();
  REQUIRE(n.r.terminal());
  require_nothing(n.fire(n.opened.arm->generation, t0 + 30000));
  CHECK(n.r.record() == before);
  CHECK_FALSE(n.r.timer_pending());
}

TEST_CASE("an expired negotiation ignores both messages and timers", "[unit]") {
  negotiation n{with_rounds(1)};
  REQUIRE(n.opened.arm);
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000); // expires: round limit
  const auto before = n.r.record();
  require_nothing(n.fire(n.opened.arm->generation, t0 + 30000));
  require_refused(n.send(accept_msg("bob", "m-b2"), t0 + 31000), severity::warning,
                  error_code::negotiation_not_active);
  CHECK(n.r.record() == before);
  CHECK(n.r.record().status_reason == "Round limit reached — 1 round");
}

// -- reason texts -------------------------------------------------------------

TEST_CASE("expiry reasons use the protocol's wording with human durations", "[unit]") {
  CHECK(round_timeout_reason(30000) == "Round timeout — no response within 30 seconds");
  CHECK(total_timeout_reason(120000) ==
        "Total timeout — negotiation exceeded 2 minutes");
  CHECK(round_timeout_reason(60000) == "Round timeout — no response within 1 minute");
  CHECK(total_timeout_reason(60000) == "Total timeout — negotiation exceeded 1 minute");
  CHECK(round_timeout_reason(1000) == "Round timeout — no response within 1 second");
  CHECK(round_timeout_reason(90000) == "Round timeout — no response within 90 seconds");
  CHECK(round_timeout_reason(1500) == "Round timeout — no response within 1500 ms");
  CHECK(total_timeout_reason(1500) == "Total timeout — negotiation exceeded 1500 ms");
  CHECK(total_timeout_reason(3600000) ==
        "Total timeout — negotiation exceeded 60 minutes");
  CHECK(round_limit_reason(5) == "Round limit reached — 5 rounds");
  CHECK(round_limit_reason(1) == "Round limit reached — 1 round");
}

TEST_CASE("an expiry after a non-default round timeout names that duration", "[unit]") {
  negotiation n{with_timeouts(1500, 120000)};
  REQUIRE(n.opened.arm);
  CHECK(n.opened.arm->due_ms == t0 + 1500);
  n.fire(n.opened.arm->generation, t0 + 1500);
  CHECK(n.r.record().status_reason == "Round timeout — no response within 1500 ms");
}

// -- take_record --------------------------------------------------------------

TEST_CASE("take_record hands the record over and still answers late messages",
          "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  n.send(accept_msg("alice", "m-a1"), t0 + 2000);
  auto rec = n.r.take_record();
  CHECK(rec.id == "neg_1");
  CHECK(rec.status == negotiation_status::accepted);
  CHECK(rec.rounds.size() == 3);
  REQUIRE(rec.final_proposal);
  CHECK(rec.final_proposal->amount == 80000);

  CHECK(n.r.terminal());
  CHECK(n.r.agent_of(party::initiator) == "alice");
  CHECK(n.r.agent_of(party::responder) == "bob");
  auto late = n.send(counter_msg("bob", "m-b2", 85000), t0 + 3000);
  require_refused(late, severity::warning, error_code::negotiation_not_active);
  CHECK(late.refused->message ==
        "Received message for non-active negotiation neg_1 (accepted); dropped");
  auto stray = counter_msg("bob", "m-b3", 85000);
  stray.negotiation_id = "neg_9";
  require_refused(n.send(stray, t0 + 3000), severity::warning,
                  error_code::negotiation_not_found);
  require_nothing(n.fire(99, t0 + 30000));
}

// -- resume (crash recovery) --------------------------------------------------

TEST_CASE("a resumed negotiation hands the latest offer to the party to move",
          "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  effects out;
  auto r = rules::resume(n.r.record(), t0 + 5000, out, 7ULL << 32);
  CHECK_FALSE(out.event);
  CHECK(out.relay_to == party::initiator);
  REQUIRE(out.arm);
  CHECK(out.arm->due_ms == t0 + 1000 + 30000);
  CHECK(out.arm->generation > 7ULL << 32);
  CHECK(r.to_move() == party::initiator);
  CHECK(r.record() == n.r.record());
  REQUIRE(r.latest_offer() != nullptr);
  CHECK(r.latest_offer()->message_id == "m-b1");
  CHECK(r.latest_offer()->proposal == offer(80000));
}

TEST_CASE("a resumed negotiation recognises every message id it applied before",
          "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  n.send(counter_msg("alice", "m-a1", 90000), t0 + 2000);
  effects out;
  auto r = rules::resume(n.r.record(), t0 + 3000, out);
  CHECK(r.to_move() == party::responder);
  auto send = [&r](const auto& x) {
    effects fx;
    r.on_message(x, t0 + 3500, fx);
    return fx;
  };
  require_refused(send(agent_proposal{"m-open", "neg_1", "alice", offer(100000)}),
                  severity::warning, error_code::duplicate_message);
  require_refused(send(counter_msg("bob", "m-b1", 80000)), severity::warning,
                  error_code::duplicate_message);
  require_refused(send(counter_msg("alice", "m-a1", 90000)), severity::warning,
                  error_code::duplicate_message);
  require_refused(send(counter_msg("bob", "m-a1", 85000)), severity::error,
                  error_code::message_id_reused);
  CHECK(r.record().rounds.size() == 3);
  effects next;
  r.on_message(counter_msg("bob", "m-b2", 86000), t0 + 4000, next);
  CHECK(next.event == negotiation_event_kind::updated);
  CHECK(r.record().rounds.size() == 4);
  // Both sides' amounts came from the rounds: convergence of 90000 and 86000.
  CHECK(r.record().convergence_score == convergence_score(90000, 86000));
}

TEST_CASE("a resumed negotiation whose round deadline passed expires at once",
          "[unit]") {
  negotiation n;
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 1000);
  effects out;
  auto r = rules::resume(n.r.record(), t0 + 1000 + 30000, out);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(out.notify_parties);
  CHECK_FALSE(out.relay_to);
  CHECK_FALSE(out.arm);
  CHECK(r.terminal());
  CHECK(r.record().status == negotiation_status::expired);
  CHECK(r.record().status_reason == round_timeout_reason(30000));
  CHECK(r.record().updated_at == t0 + 31000);
}

TEST_CASE("a resumed negotiation past its total deadline expires for that reason",
          "[unit]") {
  negotiation n{with_timeouts(30000, 40000)};
  n.send(counter_msg("bob", "m-b1", 80000), t0 + 20000);
  effects out;
  // The round deadline (t0 + 50000) is later than the total one (t0 + 40000).
  auto r = rules::resume(n.r.record(), t0 + 45000, out);
  CHECK(out.event == negotiation_event_kind::expired);
  CHECK(r.record().status_reason == total_timeout_reason(40000));
}

TEST_CASE("a resumed negotiation's timer fires at its remaining deadline",
          "[unit]") {
  negotiation n;
  effects out;
  auto r = rules::resume(n.r.record(), t0 + 10000, out);
  CHECK(out.relay_to == party::responder);
  REQUIRE(out.arm);
  CHECK(out.arm->due_ms == t0 + 30000);
  REQUIRE(r.latest_offer() != nullptr);
  CHECK(r.latest_offer()->action == round_action::propose);
  effects early;
  r.on_timer(out.arm->generation, t0 + 29999, early);
  CHECK_FALSE(early.event);
  effects due;
  r.on_timer(early.arm ? early.arm->generation : out.arm->generation, t0 + 30000, due);
  CHECK(due.event == negotiation_event_kind::expired);
}

} // namespace unit_actors_negotiation_rules_test
