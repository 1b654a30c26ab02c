#include "actors/channel/rules.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_channel_rules_test {

using namespace parley::actors::channel;
using parley::messages::channel_proposal;
using parley::messages::channel_settings;
using parley::messages::error_code;
using parley::messages::feedback_type;
using parley::messages::gap;
using parley::messages::proposal_feedback;

namespace {

using status_set = std::set<channel_status>;

const std::vector<channel_status> all_statuses = {
    channel_status::created,       channel_status::broadcasting,
    channel_status::collecting,    channel_status::aggregating,
    channel_status::proposal_sent, channel_status::negotiating,
    channel_status::finalized,     channel_status::force_finalized,
    channel_status::failed,
};

/// The transition table (docs/protocols/channels.md, "States and transitions"), written
/// out apart from the rules.
const std::map<channel_status, status_set> seed_transitions = {
    {channel_status::created, {channel_status::broadcasting, channel_status::failed}},
    {channel_status::broadcasting,
     {channel_status::collecting, channel_status::failed}},
    {channel_status::collecting, {channel_status::aggregating, channel_status::failed}},
    {channel_status::aggregating,
     {channel_status::proposal_sent, channel_status::failed}},
    {channel_status::proposal_sent,
     {channel_status::negotiating, channel_status::failed}},
    {channel_status::negotiating,
     {channel_status::finalized, channel_status::force_finalized,
      channel_status::collecting, channel_status::failed}},
    {channel_status::finalized, {}},
    {channel_status::force_finalized, {}},
    {channel_status::failed, {}},
};

proposal_feedback said(const std::string& agent, feedback_type type,
                       const std::string& adjustment = {}) {
  proposal_feedback x;
  x.message_id = "m-" + agent;
  x.channel_id = "collab-1";
  x.agent_id = agent;
  x.feedback_type = type;
  x.adjustment_request = adjustment;
  return x;
}

/// Agents a1..an.
std::set<std::string> agents(int n) {
  std::set<std::string> result;
  for (int i = 1; i <= n; ++i)
    result.insert("a" + std::to_string(i));
  return result;
}

/// a1..a(accepts) accept, the next `negotiates` negotiate, the next
/// `withdraws` withdraw; the rest of the expected agents say nothing.
std::vector<proposal_feedback> feedback(int accepts, int negotiates,
                                        int withdraws = 0) {
  std::vector<proposal_feedback> result;
  int i = 0;
  auto add = [&](int n, feedback_type type) {
    for (int k = 0; k < n; ++k)
      result.push_back(said("a" + std::to_string(++i), type));
  };
  add(accepts, feedback_type::accept);
  add(negotiates, feedback_type::negotiate);
  add(withdraws, feedback_type::withdraw);
  return result;
}

feedback_evaluation evaluate(int expected, const std::vector<proposal_feedback>& fb,
                             std::int32_t round = 1, const channel_settings& s = {}) {
  return evaluate_feedback(agents(expected), fb, round, s);
}

channel_proposal with_gaps(int n) {
  channel_proposal x;
  x.proposal_id = "p-1";
  x.demand_id = "d-1";
  for (int i = 1; i <= n; ++i)
    x.gaps.push_back(gap{"gap " + std::to_string(i), {"tag" + std::to_string(i)}});
  return x;
}

std::vector<std::string> descriptions(const std::vector<gap>& gaps) {
  std::vector<std::string> result;
  for (const auto& g : gaps)
    result.push_back(g.description);
  return result;
}

} // namespace

// -- status and transitions ----------------------------------------------------

TEST_CASE("channel statuses have their wire names", "[unit][channel]") {
  const std::vector<std::string> names = {
      "created",     "broadcasting", "collecting",      "aggregating", "proposal_sent",
      "negotiating", "finalized",    "force_finalized", "failed"};
  REQUIRE(names.size() == all_statuses.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    CHECK(to_string(all_statuses[i]) == names[i]);
    channel_status parsed = channel_status::failed;
    REQUIRE(from_string(names[i], parsed));
    CHECK(parsed == all_statuses[i]);
  }
  channel_status x = channel_status::created;
  CHECK_FALSE(from_string("FINALIZED", x));
  CHECK_FALSE(from_string("", x));
  CHECK(x == channel_status::created);
  CHECK(to_string(static_cast<channel_status>(42)) == "unknown");
}

TEST_CASE("failure reasons have their wire names", "[unit][channel]") {
  CHECK(to_string(failure_reason::low_acceptance) == "low_acceptance");
  CHECK(to_string(failure_reason::no_participants) == "no_participants");
  CHECK(to_string(failure_reason::max_rounds_exceeded) == "max_rounds_exceeded");
  CHECK(to_string(failure_reason::timeout) == "timeout");
  CHECK(to_string(failure_reason::max_recovery_attempts) == "max_recovery_attempts");
  failure_reason x = failure_reason::timeout;
  REQUIRE(from_string("no_participants", x));
  CHECK(x == failure_reason::no_participants);
  REQUIRE(from_string("max_recovery_attempts", x));
  CHECK(x == failure_reason::max_recovery_attempts);
  CHECK_FALSE(from_string("stuck", x));
  CHECK(x == failure_reason::max_recovery_attempts);
}

TEST_CASE("every (from, to) pair follows the transition table", "[unit][channel]") {
  int legal = 0;
  int refused = 0;
  for (auto from : all_statuses) {
    for (auto to : all_statuses) {
      INFO(to_string(from) << " -> " << to_string(to));
      bool allowed = seed_transitions.at(from).count(to) > 0;
      CHECK(is_valid_transition(from, to) == allowed);
      auto status = from;
      auto refusal = transition(status, to);
      if (allowed) {
        CHECK_FALSE(refusal);
        CHECK(status == to);
        ++legal;
      } else {
        REQUIRE(refusal);
        CHECK(refusal->code == error_code::illegal_transition);
        CHECK(status == from);
        ++refused;
      }
    }
  }
  CHECK(legal == 14);
  CHECK(refused == 81 - 14);
}

TEST_CASE("an illegal transition says which one and leaves the status",
          "[unit][channel]") {
  auto status = channel_status::collecting;
  auto refusal = transition(status, channel_status::finalized);
  REQUIRE(refusal);
  CHECK(refusal->code == error_code::illegal_transition);
  CHECK(refusal->message ==
        "Illegal channel transition collecting -> finalized; status unchanged");
  CHECK(status == channel_status::collecting);
}

TEST_CASE("a new round goes back from negotiating to collecting", "[unit][channel]") {
  auto status = channel_status::negotiating;
  CHECK_FALSE(transition(status, channel_status::collecting));
  CHECK(status == channel_status::collecting);
  for (auto next : {channel_status::aggregating, channel_status::proposal_sent,
                    channel_status::negotiating})
    CHECK_FALSE(transition(status, next));
  CHECK(status == channel_status::negotiating);
}

TEST_CASE("finalized, force_finalized and failed are the terminal statuses",
          "[unit][channel]") {
  for (auto x : all_statuses) {
    INFO(to_string(x));
    CHECK(is_terminal(x) == seed_transitions.at(x).empty());
  }
  CHECK(is_terminal(channel_status::force_finalized));
  CHECK_FALSE(is_terminal(channel_status::negotiating));
}

// -- idempotency -----------------------------------------------------------------

TEST_CASE("a replayed message id is refused with E011 and changes nothing",
          "[unit][channel]") {
  processed_messages seen;
  CHECK_FALSE(seen.record("m-1"));
  CHECK_FALSE(seen.record("m-2"));
  REQUIRE(seen.size() == 2);
  auto replay = seen.record("m-1");
  REQUIRE(replay);
  CHECK(replay->code == error_code::duplicate_message);
  CHECK(replay->message == "Duplicate message m-1 ignored");
  CHECK(seen.size() == 2);
  CHECK(seen.contains("m-1"));
  CHECK_FALSE(seen.contains("m-3"));
  CHECK_FALSE(seen.record("m-3"));
  CHECK(seen.size() == 3);
}

TEST_CASE("an empty message id is refused with E001 and not recorded",
          "[unit][channel]") {
  processed_messages seen;
  auto refusal = seen.record("");
  REQUIRE(refusal);
  CHECK(refusal->code == error_code::invalid_request);
  CHECK(seen.size() == 0);
  CHECK_FALSE(seen.contains(""));
}

// -- evaluation: docs/protocols/channels.md, "Evaluation and thresholds" ---------

TEST_CASE("exactly 80 % accepted finalizes", "[unit][channel]") {
  auto x = evaluate(5, feedback(4, 1));
  CHECK(x.next == channel_status::finalized);
  CHECK(x.accepts == 4);
  CHECK(x.negotiates == 1);
  CHECK(x.withdraws == 0);
  CHECK(x.active == 5);
  CHECK(x.accept_rate == 0.8);
  CHECK_FALSE(x.failure);
  CHECK(x.confirmed.empty());
  CHECK(x.optional.empty());
  CHECK(x.compromise_suggestion.empty());
}

TEST_CASE("withdraws leave the denominator: 4 of 6 less 1 withdraw is 80 %",
          "[unit][channel]") {
  auto x = evaluate(6, feedback(4, 1, 1));
  CHECK(x.active == 5);
  CHECK(x.withdraws == 1);
  CHECK(x.accept_rate == 0.8);
  CHECK(x.next == channel_status::finalized);
}

TEST_CASE("an agent that says nothing counts against", "[unit][channel]") {
  auto x = evaluate(5, feedback(3, 0));
  CHECK(x.active == 5);
  CHECK(x.accept_rate == 0.6);
  CHECK(x.next == channel_status::collecting);
}

TEST_CASE("just below 80 % starts a new round before the last", "[unit][channel]") {
  SECTION("3 of 4: 75 %") {
    auto x = evaluate(4, feedback(3, 1));
    CHECK(x.accept_rate == 0.75);
    CHECK(x.next == channel_status::collecting);
  }
  SECTION("7 of 9: 77.8 %") {
    auto x = evaluate(9, feedback(7, 2), 4);
    CHECK(x.accept_rate == Approx(7.0 / 9.0));
    CHECK(x.next == channel_status::collecting);
  }
  SECTION("79 of 100") {
    auto x = evaluate(100, feedback(79, 21), 2);
    CHECK(x.next == channel_status::collecting);
  }
}

TEST_CASE("exactly 50 % starts a new round", "[unit][channel]") {
  auto x = evaluate(4, feedback(2, 2));
  CHECK(x.accept_rate == 0.5);
  CHECK(x.next == channel_status::collecting);
  CHECK_FALSE(x.failure);
  CHECK(x.confirmed.empty());
  CHECK(x.optional.empty());
}

TEST_CASE("just below 50 % fails with low_acceptance and a compromise",
          "[unit][channel]") {
  std::vector<proposal_feedback> fb = {
      said("a1", feedback_type::accept),
      said("a2", feedback_type::negotiate, "later start"),
      said("a3", feedback_type::accept),
      said("a4", feedback_type::negotiate),
      said("a5", feedback_type::negotiate, "a bigger room"),
      said("a6", feedback_type::accept),
      said("a7", feedback_type::accept),
      said("a8", feedback_type::negotiate),
  };
  auto x = evaluate(9, fb); // 4 of 9: 44 %
  CHECK(x.accept_rate == Approx(4.0 / 9.0));
  CHECK(x.next == channel_status::failed);
  REQUIRE(x.failure);
  CHECK(*x.failure == failure_reason::low_acceptance);
  CHECK(x.compromise_suggestion ==
        "Only 4 of 9 active participants accepted (44%, below 50%). A compromise "
        "would address: a2: later start; a5: a bigger room.");
  CHECK(x.confirmed.empty());
  CHECK(x.optional.empty());
}

TEST_CASE("49 of 100 fails, and nobody asking for changes is said so", "[unit][channel]") {
  auto x = evaluate(100, feedback(49, 51));
  CHECK(x.next == channel_status::failed);
  CHECK(x.failure == failure_reason::low_acceptance);
  CHECK(x.compromise_suggestion == "Only 49 of 100 active participants accepted "
                                   "(49%, below 50%). Nobody asked for an adjustment.");
}

TEST_CASE("nobody active fails with no_participants", "[unit][channel]") {
  SECTION("everyone withdrew") {
    auto x = evaluate(3, feedback(0, 0, 3));
    CHECK(x.withdraws == 3);
    CHECK(x.active == 0);
    CHECK(x.accept_rate == 0.0);
    CHECK(x.next == channel_status::failed);
    CHECK(x.failure == failure_reason::no_participants);
    CHECK(x.compromise_suggestion.empty());
    CHECK_FALSE(x.evaluated); // fails at once: no feedback.evaluated
  }
  SECTION("nobody was expected") {
    auto x = evaluate(0, feedback(0, 0));
    CHECK(x.active == 0);
    CHECK(x.failure == failure_reason::no_participants);
    CHECK_FALSE(x.evaluated);
  }
  SECTION("even at the last round") {
    auto x = evaluate(2, feedback(0, 0, 2), 5);
    CHECK(x.next == channel_status::failed);
    CHECK(x.failure == failure_reason::no_participants);
    CHECK_FALSE(x.evaluated);
  }
  SECTION("a withdrawal replaced by a later accept leaves one active") {
    auto fb = feedback(0, 0, 2);
    fb.push_back(said("a2", feedback_type::accept));
    auto x = evaluate(2, fb);
    CHECK(x.active == 1);
    CHECK(x.evaluated);
    CHECK(x.next == channel_status::finalized);
  }
}

TEST_CASE("every decision with someone active is evaluated", "[unit][channel]") {
  CHECK(evaluate(5, feedback(5, 0)).evaluated);    // finalized
  CHECK(evaluate(5, feedback(3, 2)).evaluated);    // a new round
  CHECK(evaluate(5, feedback(3, 2), 5).evaluated); // force finalized
  CHECK(evaluate(5, feedback(1, 4)).evaluated);    // low acceptance
  CHECK(evaluate(3, feedback(0, 0, 2)).next == channel_status::failed); // one silent
  CHECK(evaluate(3, feedback(0, 0, 2)).evaluated);
}

TEST_CASE("one active participant left decides alone", "[unit][channel]") {
  CHECK(evaluate(3, feedback(1, 0, 2)).next == channel_status::finalized);
  CHECK(evaluate(3, feedback(0, 1, 2)).next == channel_status::failed);
}

// -- evaluation at the last round: docs/protocols/channels.md, "Forced finalize" --

TEST_CASE("50–80 % at round 5 force-finalizes with confirmed and optional",
          "[unit][channel]") {
  std::vector<proposal_feedback> fb = {
      said("a3", feedback_type::negotiate), said("a1", feedback_type::accept),
      said("a5", feedback_type::withdraw),  said("a2", feedback_type::accept),
      said("a4", feedback_type::accept),
  };
  auto x = evaluate(6, fb, 5); // 3 of 5 active (a6 silent): 60 %
  CHECK(x.accept_rate == 0.6);
  CHECK(x.next == channel_status::force_finalized);
  CHECK_FALSE(x.failure);
  CHECK(x.confirmed == std::vector<std::string>{"a1", "a2", "a4"});
  // A forced finalize lists every feedback that is not an accept, a withdraw too; the
  // silent a6 is in neither list.
  CHECK(x.optional == std::vector<std::string>{"a3", "a5"});
}

TEST_CASE("exactly 50 % at the last round force-finalizes", "[unit][channel]") {
  auto x = evaluate(4, feedback(2, 2), 5);
  CHECK(x.next == channel_status::force_finalized);
  CHECK(x.confirmed == std::vector<std::string>{"a1", "a2"});
  CHECK(x.optional == std::vector<std::string>{"a3", "a4"});
}

TEST_CASE("round 4 of 5 still starts a new round", "[unit][channel]") {
  CHECK(evaluate(4, feedback(3, 1), 4).next == channel_status::collecting);
  CHECK(evaluate(4, feedback(3, 1), 5).next == channel_status::force_finalized);
  CHECK(evaluate(4, feedback(3, 1), 6).next == channel_status::force_finalized);
}

TEST_CASE("at the last round 80 % still finalizes and below 50 % still fails",
          "[unit][channel]") {
  auto high = evaluate(5, feedback(4, 1), 5);
  CHECK(high.next == channel_status::finalized);
  CHECK(high.confirmed.empty());
  auto low = evaluate(5, feedback(2, 3), 5);
  CHECK(low.next == channel_status::failed);
  CHECK(low.failure == failure_reason::low_acceptance);
}

TEST_CASE("thresholds and the last round come from the settings", "[unit][channel]") {
  channel_settings s;
  s.max_rounds = 3;
  s.accept_threshold_high = 0.6;
  s.accept_threshold_low = 0.4;
  CHECK(evaluate(5, feedback(3, 2), 1, s).next == channel_status::finalized);
  CHECK(evaluate(5, feedback(2, 3), 2, s).next == channel_status::collecting);
  CHECK(evaluate(5, feedback(2, 3), 3, s).next == channel_status::force_finalized);
  CHECK(evaluate(5, feedback(1, 4), 1, s).next == channel_status::failed);
}

TEST_CASE("the defaults: 5 rounds, 80 % and 50 %", "[unit][channel]") {
  channel_settings s;
  CHECK(s.max_rounds == 5);
  CHECK(s.accept_threshold_high == 0.8);
  CHECK(s.accept_threshold_low == 0.5);
}

// -- evaluation: which feedback counts ---------------------------------------------

TEST_CASE("feedback from an agent not expected is ignored", "[unit][channel]") {
  auto fb = feedback(3, 1);
  fb.push_back(said("stranger", feedback_type::accept));
  auto x = evaluate(4, fb);
  CHECK(x.accepts == 3);
  CHECK(x.accept_rate == 0.75);
  CHECK(x.next == channel_status::collecting);
}

TEST_CASE("an agent's latest feedback counts, in the place of its first",
          "[unit][channel]") {
  std::vector<proposal_feedback> fb = {
      said("a1", feedback_type::negotiate),
      said("a2", feedback_type::accept),
      said("a3", feedback_type::negotiate),
      said("a1", feedback_type::accept),
  };
  auto x = evaluate(3, fb, 5); // a1 and a2 accept: 67 %
  CHECK(x.accepts == 2);
  CHECK(x.negotiates == 1);
  CHECK(x.next == channel_status::force_finalized);
  CHECK(x.confirmed == std::vector<std::string>{"a1", "a2"});
  CHECK(x.optional == std::vector<std::string>{"a3"});
}

// -- sub-channels: docs/protocols/channels.md, "Gaps and sub-channels" -----------

TEST_CASE("a finalized top channel opens at most 3 sub-channels", "[unit][channel]") {
  auto plan = plan_subchannels(channel_status::finalized, 0, 0, with_gaps(5), {});
  CHECK(descriptions(plan.open) == std::vector<std::string>{"gap 1", "gap 2", "gap 3"});
  CHECK(descriptions(plan.noted) == std::vector<std::string>{"gap 4", "gap 5"});
  REQUIRE(plan.open.size() == 3);
  CHECK(plan.open[0].capability_tags == std::vector<std::string>{"tag1"});
}

TEST_CASE("sub-channels already open count against the 3", "[unit][channel]") {
  auto two = plan_subchannels(channel_status::finalized, 0, 2, with_gaps(3), {});
  CHECK(descriptions(two.open) == std::vector<std::string>{"gap 1"});
  CHECK(descriptions(two.noted) == std::vector<std::string>{"gap 2", "gap 3"});
  auto three = plan_subchannels(channel_status::finalized, 0, 3, with_gaps(2), {});
  CHECK(three.open.empty());
  CHECK(three.noted.size() == 2);
  auto over = plan_subchannels(channel_status::finalized, 0, 7, with_gaps(1), {});
  CHECK(over.open.empty());
  CHECK(over.noted.size() == 1);
}

TEST_CASE("a sub-channel (depth 1) opens none: its gaps are only noted",
          "[unit][channel]") {
  auto plan = plan_subchannels(channel_status::finalized, 1, 0, with_gaps(2), {});
  CHECK(plan.open.empty());
  CHECK(descriptions(plan.noted) == std::vector<std::string>{"gap 1", "gap 2"});
}

TEST_CASE("a force-finalized channel opens sub-channels too", "[unit][channel]") {
  auto plan = plan_subchannels(channel_status::force_finalized, 0, 0, with_gaps(1), {});
  CHECK(plan.open.size() == 1);
  CHECK(plan.noted.empty());
}

TEST_CASE("a channel not finalized opens no sub-channel", "[unit][channel]") {
  for (auto status : all_statuses) {
    if (status == channel_status::finalized ||
        status == channel_status::force_finalized)
      continue;
    INFO(to_string(status));
    auto plan = plan_subchannels(status, 0, 0, with_gaps(2), {});
    CHECK(plan.open.empty());
    CHECK(plan.noted.size() == 2);
  }
}

TEST_CASE("the sub-channel limits come from the settings", "[unit][channel]") {
  channel_settings s;
  CHECK(s.max_depth == 1);
  CHECK(s.max_subchannels == 3);
  s.max_subchannels = 1;
  auto one = plan_subchannels(channel_status::finalized, 0, 0, with_gaps(3), s);
  CHECK(descriptions(one.open) == std::vector<std::string>{"gap 1"});
  s.max_depth = 0;
  auto none = plan_subchannels(channel_status::finalized, 0, 0, with_gaps(3), s);
  CHECK(none.open.empty());
  CHECK(none.noted.size() == 3);
}

TEST_CASE("a proposal without gaps plans nothing", "[unit][channel]") {
  auto plan = plan_subchannels(channel_status::finalized, 0, 0, with_gaps(0), {});
  CHECK(plan.open.empty());
  CHECK(plan.noted.empty());
}

} // namespace unit_actors_channel_rules_test
