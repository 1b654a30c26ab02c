#include "service/sse_rules.hpp"

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "messages/channel_event.hpp"
#include "service/sse_payload.hpp"

namespace unit_service_sse_rules_test {

namespace http = parley::service;
namespace msg = parley::messages;
using http::frame_ptr;
using http::kept_frame;
using msg::topic;

namespace {

frame_ptr frame(std::uint64_t id, topic t = topic::negotiation_started,
                std::string negotiation = {}, std::string channel = {},
                std::string demand = {}) {
  return std::make_shared<const kept_frame>(
      kept_frame{id,
                 {t, std::move(negotiation), std::move(channel), std::move(demand)},
                 std::make_shared<const std::string>("frame " + std::to_string(id))});
}

std::vector<std::uint64_t> ids_of(const http::replay& r) {
  std::vector<std::uint64_t> out;
  for (const auto& x : r.frames)
    out.push_back(x->id);
  return out;
}

using ids = std::vector<std::uint64_t>;

} // namespace

TEST_CASE("a frame is id, event and data lines", "[unit][sse]") {
  CHECK(http::frame_text(7, "towow.offer.submitted", "2026-01-22T10:05:00.000Z",
                         R"({"a":1})") ==
        "id: 7\nevent: towow.offer.submitted\n"
        "data: {\"event_id\":\"7\",\"event_type\":\"towow.offer.submitted\","
        "\"timestamp\":\"2026-01-22T10:05:00.000Z\",\"payload\":{\"a\":1}}\n\n");
  // A cluster's node names the node whose event it is, its id as JSON.
  CHECK(http::frame_text(8, "negotiation.started", "T", R"({"a":1})", "node-\"b\"") ==
        "id: 8\nevent: negotiation.started\n"
        "data: {\"event_id\":\"8\",\"event_type\":\"negotiation.started\","
        "\"timestamp\":\"T\",\"node\":\"node-\\\"b\\\"\",\"payload\":{\"a\":1}}\n\n");
  CHECK(http::reset_frame_text(3, 9, "T") ==
        "event: reset\ndata: {\"event_type\":\"reset\",\"timestamp\":\"T\","
        "\"payload\":{\"after\":\"3\",\"first_kept\":\"9\"}}\n\n");
}

TEST_CASE("the global stream's filters: topics and ids", "[unit][sse]") {
  http::sse_filter f;
  http::event_keys started{topic::negotiation_started, "n1", "", ""};
  http::event_keys offer{topic::offer_submitted, "", "c1", "d1"};
  CHECK(http::matches(f, started));
  CHECK(http::matches(f, offer));
  f.topics = http::topic_group("channel");
  CHECK_FALSE(http::matches(f, started));
  CHECK(http::matches(f, offer));
  f.demand_id = "d2";
  CHECK_FALSE(http::matches(f, offer));
  f.demand_id = "d1";
  f.channel_id = "c1";
  CHECK(http::matches(f, offer));
  f = {};
  f.negotiation_id = "n1";
  CHECK(http::matches(f, started));
  CHECK_FALSE(http::matches(f, offer)); // it has no negotiation id
}

TEST_CASE("topic groups name the bus's topics", "[unit][sse]") {
  auto negotiation = http::topic_group("negotiation");
  CHECK(negotiation == msg::lifecycle_topics);
  CHECK_FALSE(negotiation.contains(topic::ballot_vote));
  CHECK(http::topic_group("ballot").contains(topic::ballot_vote));
  CHECK(http::topic_group("auction").contains(topic::auction_bid));
  CHECK(http::topic_group("agent").contains(topic::agent_tool_call));
  CHECK(http::topic_group("error") == msg::problem_topics);
  CHECK(http::topic_group("problem") == msg::problem_topics);
  CHECK(http::topic_group("channel") == msg::channel_topics);
  CHECK(http::topic_group("towow.offer.submitted") ==
        msg::topic_set::of(topic::offer_submitted));
  CHECK(http::topic_group("nonsense").empty());
  CHECK(http::topic_group("").empty());
}

TEST_CASE("the replay window resumes after an id it keeps with no gap", "[unit][sse]") {
  http::replay_window w{3};
  http::sse_filter all;
  CHECK(ids_of(w.since(0, all)).empty());
  CHECK_FALSE(w.since(0, all).gap);
  for (std::uint64_t i = 1; i <= 5; ++i)
    w.add(frame(i));
  // Keeps 3, 4, 5.
  auto r = w.since(2, all);
  CHECK_FALSE(r.gap);
  CHECK(ids_of(r) == ids{3, 4, 5});
  CHECK(ids_of(w.since(4, all)) == ids{5});
  CHECK(w.since(5, all).frames.empty());
  CHECK_FALSE(w.since(5, all).gap);
  // 2 is gone: a gap, then what is kept.
  r = w.since(1, all);
  CHECK(r.gap);
  CHECK(r.first_kept == 3);
  CHECK(ids_of(r) == ids{3, 4, 5});
  // An id from before a restart (past the last): a gap too.
  r = w.since(99, all);
  CHECK(r.gap);
  CHECK(ids_of(r) == ids{3, 4, 5});
}

TEST_CASE("the replay window applies the stream's filter", "[unit][sse]") {
  http::replay_window w{10};
  w.add(frame(1, topic::negotiation_started, "n1"));
  w.add(frame(2, topic::negotiation_started, "n2"));
  w.add(frame(3, topic::negotiation_agreed, "n1"));
  http::sse_filter f;
  f.negotiation_id = "n1";
  CHECK(ids_of(w.since(0, f)) == ids{1, 3});
  f.topics = msg::terminal_topics;
  CHECK(ids_of(w.since(0, f)) == ids{3});
}

TEST_CASE("each demand counts its own ids and keeps its frames", "[unit][sse]") {
  http::demand_logs logs{10, 10};
  CHECK(logs.next_id("d1") == 1);
  logs.add("d1", frame(logs.next_id("d1")));
  logs.add("d2", frame(logs.next_id("d2")));
  logs.add("d1", frame(logs.next_id("d1")));
  CHECK(logs.next_id("d1") == 3);
  CHECK(logs.next_id("d2") == 2);
  CHECK(ids_of(logs.since("d1", 0)) == ids{1, 2});
  CHECK(ids_of(logs.since("d1", 1)) == ids{2});
  CHECK(ids_of(logs.since("d2", 0)) == ids{1});
  CHECK(logs.since("d3", 0).frames.empty());
  CHECK_FALSE(logs.since("d3", 0).gap);
  CHECK(logs.size() == 3);
}

TEST_CASE("demand logs forget their oldest frames beyond the capacity", "[unit][sse]") {
  http::demand_logs logs{3, 10};
  for (int i = 0; i < 3; ++i)
    logs.add("d1", frame(logs.next_id("d1")));
  logs.add("d2", frame(logs.next_id("d2")));
  logs.add("d2", frame(logs.next_id("d2")));
  CHECK(logs.size() == 3);
  // d1 keeps only its 3rd: resuming after 1 has a gap.
  auto r = logs.since("d1", 1);
  CHECK(r.gap);
  CHECK(r.first_kept == 3);
  CHECK(ids_of(r) == ids{3});
  CHECK_FALSE(logs.since("d1", 2).gap);
  CHECK(ids_of(logs.since("d2", 0)) == ids{1, 2});
  // Ids go on from where the demand was.
  CHECK(logs.next_id("d1") == 4);
}

TEST_CASE("demand logs forget the least recently active demand beyond the limit",
          "[unit][sse]") {
  http::demand_logs logs{100, 2};
  logs.add("d1", frame(logs.next_id("d1")));
  logs.add("d2", frame(logs.next_id("d2")));
  logs.add("d1", frame(logs.next_id("d1")));
  logs.add("d3", frame(logs.next_id("d3")));
  // d2 was the least recently active.
  CHECK(logs.next_id("d2") == 1);
  CHECK(logs.next_id("d1") == 3);
  CHECK(logs.size() == 3);
  // A resume past what is known of a forgotten demand: reset.
  CHECK(logs.since("d2", 1).gap);
  // Its stale place in the age order does not take a newer log's frame.
  for (int i = 0; i < 200; ++i)
    logs.add("d1", frame(logs.next_id("d1")));
  CHECK(logs.size() == 100);
  CHECK(logs.since("d1", 0).first_kept == 103);
}

TEST_CASE("a Last-Event-ID is a decimal number", "[unit][sse]") {
  std::uint64_t id = 0;
  CHECK(http::parse_event_id("42", id));
  CHECK(id == 42);
  CHECK(http::parse_event_id("0", id));
  CHECK(id == 0);
  CHECK_FALSE(http::parse_event_id("", id));
  CHECK_FALSE(http::parse_event_id("-1", id));
  CHECK_FALSE(http::parse_event_id("4x", id));
  CHECK_FALSE(http::parse_event_id("12345678901234567890", id));
}

TEST_CASE("a channel event's payload has the flat fields of its kind", "[unit][sse]") {
  msg::channel_event x;
  x.kind = msg::channel_event_kind::feedback_evaluated;
  x.channel_id = "c1";
  x.demand_id = "d1";
  x.round = 2;
  x.tally = msg::channel_tally{3, 1, 0, 0.75, msg::channel_decision::renegotiate};
  auto j = http::channel_payload(x);
  CHECK(j["channel_id"] == "c1");
  CHECK(j["accepts"] == 3);
  CHECK(j["rejects"] == 0);
  CHECK(j["negotiates"] == 1);
  CHECK(j["withdraws"] == 0);
  CHECK(j["accept_rate"] == 0.75);
  CHECK(j["round"] == 2);
  CHECK(j["decision"] == "renegotiate");

  msg::channel_event u;
  u.kind = msg::channel_event_kind::demand_understood;
  u.demand_id = "d1";
  msg::demand_understanding need;
  need.surface_demand = "a venue";
  need.capability_tags = {"venue"};
  need.confidence = msg::confidence_level::high;
  u.understanding = need;
  j = http::channel_payload(u);
  CHECK(j["demand_id"] == "d1");
  CHECK(j["surface_demand"] == "a venue");
  CHECK(j["capability_tags"] == nlohmann::json({"venue"}));
  CHECK(j["confidence"] == "high");

  msg::channel_event o;
  o.kind = msg::channel_event_kind::offer_submitted;
  o.channel_id = "c1";
  o.demand_id = "d1";
  msg::offer_response offer;
  offer.agent_id = "hall";
  offer.display_name = "Hall";
  offer.response_type = msg::offer_response_type::negotiate;
  offer.decision = msg::offer_decision::conditional;
  offer.negotiation_points = {{"date", "", "Friday", ""}};
  o.offer = offer;
  j = http::channel_payload(o);
  CHECK(j["agent_id"] == "hall");
  CHECK(j["display_name"] == "Hall");
  CHECK(j["response_type"] == "negotiate");
  CHECK(j["decision"] == "conditional");
  CHECK(j["negotiation_summary"] == "date: Friday");
  CHECK_FALSE(j.contains("contribution"));
}

} // namespace unit_service_sse_rules_test
