#include "messages/channel.hpp"
#include "messages/channel_settings.hpp"

#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "caf/binary_deserializer.hpp"
#include "caf/binary_serializer.hpp"

namespace unit_messages_channel_test {

using namespace parley::messages;

namespace {

offer_response an_offer() {
  offer_response x;
  x.message_id = "m-1";
  x.channel_id = "collab-abc12345";
  x.agent_id = "bob";
  x.display_name = "Bob";
  x.contribution = "a venue for 50 people";
  x.reasoning = "free on Saturday";
  x.confidence = 80;
  return x;
}

offer_response a_negotiate() {
  auto x = an_offer();
  x.response_type = offer_response_type::negotiate;
  x.decision = offer_decision::conditional;
  x.conditions = {"weekend only"};
  x.negotiation_points = {{"date", "Friday", "Saturday", "busy on Friday"}};
  return x;
}

proposal_feedback a_feedback() {
  proposal_feedback x;
  x.message_id = "m-2";
  x.channel_id = "collab-abc12345";
  x.agent_id = "bob";
  x.feedback_type = feedback_type::negotiate;
  x.adjustment_request = "start at 3 pm";
  x.reasoning = "travel time";
  return x;
}

channel_proposal a_proposal() {
  channel_proposal x;
  x.proposal_id = "p-1";
  x.demand_id = "d-abc12345";
  x.version = 2;
  x.summary = "AI meetup in Beijing";
  x.objective = "a relaxed evening";
  x.assignments = {{"bob", "Bob", "venue", "hosts", {"carol"}, false, "Saturday"}};
  x.timeline.text = R"({"date":"2026-02-07"})";
  x.rationale = "Bob has the room";
  x.is_forced = true;
  x.confirmed_participants = {"carol"};
  x.optional_participants = {"bob"};
  x.gaps = {{"a speaker on agents", {"演讲嘉宾"}}};
  x.confidence = confidence_level::low;
  x.created_at = 1'700'000'000'000;
  return x;
}

template <class T> T round_trip(T x) {
  std::vector<char> buf;
  caf::binary_serializer sink{nullptr, buf};
  REQUIRE_FALSE(sink(x));
  T result;
  caf::binary_deserializer source{nullptr, buf};
  REQUIRE_FALSE(source(result));
  CHECK(source.remaining() == 0);
  return result;
}

} // namespace

TEST_CASE("channel enums have their wire names", "[unit][channel]") {
  CHECK(to_string(offer_response_type::offer) == "offer");
  CHECK(to_string(offer_response_type::negotiate) == "negotiate");
  CHECK(to_string(offer_decision::participate) == "participate");
  CHECK(to_string(offer_decision::decline) == "decline");
  CHECK(to_string(offer_decision::conditional) == "conditional");
  CHECK(to_string(feedback_type::accept) == "accept");
  CHECK(to_string(feedback_type::negotiate) == "negotiate");
  CHECK(to_string(feedback_type::withdraw) == "withdraw");
  CHECK(to_string(confidence_level::high) == "high");
  CHECK(to_string(confidence_level::medium) == "medium");
  CHECK(to_string(confidence_level::low) == "low");
  feedback_type f = feedback_type::accept;
  REQUIRE(from_string("withdraw", f));
  CHECK(f == feedback_type::withdraw);
  CHECK_FALSE(from_string("reject", f));
  offer_decision d = offer_decision::participate;
  REQUIRE(from_string("conditional", d));
  CHECK(d == offer_decision::conditional);
}

TEST_CASE("an offer that takes part needs a contribution", "[unit][channel]") {
  CHECK(validate(an_offer()) == "");
  auto x = an_offer();
  x.contribution.clear();
  CHECK(validate(x) == "an offer that takes part needs a contribution");
  x.decision = offer_decision::conditional;
  CHECK(validate(x) == "an offer that takes part needs a contribution");
  x.decision = offer_decision::decline;
  x.decline_reason = "away";
  CHECK(validate(x) == "");
}

TEST_CASE("negotiate needs negotiation points", "[unit][channel]") {
  CHECK(validate(a_negotiate()) == "");
  auto x = a_negotiate();
  x.negotiation_points.clear();
  CHECK(validate(x) == "negotiate needs at least one negotiation point");
  x.negotiation_points = {{"date", "", "Saturday", ""}};
  x.contribution.clear();
  CHECK(validate(x) == "");
}

TEST_CASE("an offer response needs its ids and a confidence within 0..100",
          "[unit][channel]") {
  auto x = an_offer();
  x.message_id.clear();
  CHECK(validate(x) == "message_id is required");
  x = an_offer();
  x.channel_id.clear();
  CHECK(validate(x) == "channel_id is required");
  x = an_offer();
  x.agent_id.clear();
  CHECK(validate(x) == "agent_id is required");
  x = an_offer();
  x.confidence = 100;
  CHECK(validate(x) == "");
  x.confidence = 101;
  CHECK(validate(x) == "confidence must be within 0..100, got 101");
  x.confidence = -1;
  CHECK(validate(x) == "confidence must be within 0..100, got -1");
}

TEST_CASE("feedback needs its ids", "[unit][channel]") {
  CHECK(validate(a_feedback()) == "");
  auto x = a_feedback();
  x.message_id.clear();
  CHECK(validate(x) == "message_id is required");
  x = a_feedback();
  x.agent_id.clear();
  CHECK(validate(x) == "agent_id is required");
}

TEST_CASE("a proposal's version is within 1..max_rounds", "[unit][channel]") {
  auto x = a_proposal();
  x.version = 1;
  CHECK(validate(x, 5) == "");
  x.version = 5;
  CHECK(validate(x, 5) == "");
  x.version = 6;
  CHECK(validate(x, 5) == "version must be within 1..5, got 6");
  x.version = 0;
  CHECK(validate(x, 5) == "version must be within 1..5, got 0");
  x = a_proposal();
  x.assignments.push_back({});
  CHECK(validate(x, 5) == "every assignment needs an agent_id");
}

TEST_CASE("a proposal's defaults follow the channel protocol", "[unit][channel]") {
  channel_proposal x;
  CHECK(x.version == 1);
  CHECK_FALSE(x.is_forced);
  CHECK(x.confidence == confidence_level::medium);
  CHECK(x.timeline.text == "{}");
  assignment a;
  CHECK(a.is_confirmed);
}

TEST_CASE("channel values survive CAF's binary serializer", "[unit][channel]") {
  CHECK(round_trip(a_negotiate()) == a_negotiate());
  CHECK(round_trip(a_feedback()) == a_feedback());
  CHECK(round_trip(a_proposal()) == a_proposal());
  channel_settings s;
  s.max_rounds = 3;
  s.accept_threshold_low = 0.25;
  s.max_stuck_ms = 1;
  CHECK(round_trip(s) == s);
}

TEST_CASE("channel settings default to the protocol's numbers", "[unit][channel]") {
  channel_settings s;
  CHECK(s.max_candidates == 10);
  CHECK(s.min_candidates == 1);
  CHECK(s.fallback_candidates == 3);
  CHECK(s.max_rounds == 5);
  CHECK(s.accept_threshold_high == 0.8);
  CHECK(s.accept_threshold_low == 0.5);
  CHECK(s.max_depth == 1);
  CHECK(s.max_subchannels == 3);
  CHECK(s.response_timeout_ms == 300000);
  CHECK(s.feedback_timeout_ms == 120000);
  CHECK(s.state_check_interval_ms == 5000);
  CHECK(s.max_stuck_ms == 120000);
  CHECK(s.max_recovery_attempts == 3);
  CHECK(s.coordinator_brain == "rule");
  CHECK(validate(s) == "");
}

TEST_CASE("channel settings out of range are refused by name", "[unit][channel]") {
  auto refused = [](auto change) {
    channel_settings s;
    change(s);
    return validate(s);
  };
  CHECK(refused([](auto& s) { s.max_candidates = 0; }) ==
        "max_candidates must be within 1..100, got 0");
  CHECK(refused([](auto& s) { s.min_candidates = 11; }) ==
        "min_candidates must be within 1..10, got 11");
  CHECK(refused([](auto& s) { s.fallback_candidates = 0; }) ==
        "fallback_candidates must be within 1..10, got 0");
  CHECK(refused([](auto& s) { s.max_rounds = 21; }) ==
        "max_rounds must be within 1..20, got 21");
  CHECK(refused([](auto& s) {
          s.accept_threshold_high = 1.5;
        }).rfind("accept_threshold_high must be within (0, 1]", 0) == 0);
  CHECK(refused([](auto& s) {
          s.accept_threshold_high = std::numeric_limits<double>::quiet_NaN();
        }).rfind("accept_threshold_high", 0) == 0);
  CHECK(refused([](auto& s) {
          s.accept_threshold_low = 0.9;
        }).rfind("accept_threshold_low must be within (0, accept_threshold_high]", 0) ==
        0);
  CHECK(refused([](auto& s) {
          s.accept_threshold_low = 0;
        }).rfind("accept_threshold_low", 0) == 0);
  CHECK(refused([](auto& s) { s.max_depth = 2; }) ==
        "max_depth must be within 0..1, got 2");
  CHECK(refused([](auto& s) { s.max_subchannels = 4; }) ==
        "max_subchannels must be within 0..3, got 4");
  CHECK(refused([](auto& s) { s.response_timeout_ms = 0; }) ==
        "response_timeout_ms must be within 1..31536000000, got 0");
  CHECK(refused([](auto& s) { s.max_stuck_ms = -5; }) ==
        "max_stuck_ms must be within 1..31536000000, got -5");
  CHECK(refused([](auto& s) { s.max_recovery_attempts = -1; }) ==
        "max_recovery_attempts must be within 0..100, got -1");
  CHECK(refused([](auto& s) { s.coordinator_brain = "gpt"; }) ==
        "coordinator_brain must be rule or llm, got \"gpt\"");
  CHECK(refused([](auto& s) { s.coordinator_brain = "llm"; }) == "");
  CHECK(refused([](auto& s) { s.accept_threshold_low = s.accept_threshold_high; }) ==
        "");
}

} // namespace unit_messages_channel_test
