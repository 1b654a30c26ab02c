// The event streams of `parley serve` over real HTTP on loopback (docs/api.md,
// issue 14): framing, replay, Last-Event-ID resume, filters, a slow
// client cut off, shutdown with a stream open. Every wait is bounded.

#include <csignal>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"
#include "support/sse_client.hpp"

namespace integration_sse_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::feedback_message;
using parley::test::offer_message;
using parley::test::openapi_contract;
using parley::test::serve_process;
using parley::test::sse_client;
using parley::test::sse_event;
using parley::test::submit_meetup;

namespace {

using events = std::vector<sse_event>;

std::string stream_of(const std::string& demand_id) {
  return "/api/v1/events/negotiations/" + demand_id + "/stream";
}

/// Whether `xs` has an event of `type`.
bool has(const events& xs, const std::string& type) {
  for (const auto& x : xs)
    if (x.type == type)
      return true;
  return false;
}

auto having(const std::string& type) {
  return [type](const events& xs) {
    return has(xs, type);
  };
}

/// A serve with the meetup demand submitted (submit_meetup).
struct meetup {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  std::string demand_id;
  std::string channel_id;

  meetup() {
    auto receipt = submit_meetup(api);
    demand_id = receipt["demand_id"].get<std::string>();
    channel_id = receipt["channel_id"].get<std::string>();
  }
};

/// Answers the meetup's channel (submit_meetup) as both members accept:
/// it finalizes in round 1.
void finalize_meetup(api_client& api, const std::string& channel_id) {
  auto messages = "/api/v1/channels/" + channel_id + "/messages";
  for (const auto* agent : {"hall", "voice"})
    parley::test::await_question(api, agent, "demand_offers", channel_id);
  REQUIRE(api.post(messages, offer_message("hall", "h-o")).status == 200);
  REQUIRE(api.post(messages, offer_message("voice", "v-o")).status == 200);
  for (const auto* agent : {"hall", "voice"})
    parley::test::await_question(api, agent, "proposal_reviews", channel_id);
  REQUIRE(api.post(messages, feedback_message("hall", "h-f")).status == 200);
  REQUIRE(api.post(messages, feedback_message("voice", "v-f")).status == 200);
}

/// The ids of `xs`, as numbers.
std::vector<int> ids_of(const events& xs) {
  std::vector<int> out;
  for (const auto& x : xs)
    out.push_back(std::stoi(x.id));
  return out;
}

std::vector<int> one_to(int n) {
  std::vector<int> out;
  for (int i = 1; i <= n; ++i)
    out.push_back(i);
  return out;
}

/// Checks that `x` is framed as docs/api.md, "Event streams (Server-Sent Events)" says.
void check_framing(const sse_event& x) {
  INFO(x.data_text);
  REQUIRE(x.data.is_object());
  CHECK(x.data.size() == 4);
  CHECK(x.data["event_id"] == x.id);
  CHECK(x.data["event_type"] == x.type);
  CHECK(x.data["payload"].is_object());
  CHECK_THAT(x.data["timestamp"].get<std::string>(),
             Catch::Matches(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"));
}

} // namespace

TEST_CASE("a demand's stream is framed as the API says, replayed from its first event",
          "[integration][sse]") {
  meetup m;
  const auto& serve = m.serve;
  auto& api = m.api;
  const auto& demand_id = m.demand_id;
  const auto& channel_id = m.channel_id;
  // Opened after the submit: the demand's events so far come first.
  sse_client stream{serve.port, stream_of(demand_id)};
  auto head = stream.headers();
  CHECK_THAT(head, Catch::StartsWith("HTTP/1.1 200 OK\r\n"));
  CHECK_THAT(head, Catch::Contains("\r\nContent-Type: text/event-stream\r\n"));
  CHECK_THAT(head, Catch::Contains("\r\nCache-Control: no-cache\r\n"));
  CHECK_THAT(head, Catch::Contains("\r\nConnection: keep-alive\r\n"));
  REQUIRE(stream.read_until([](const events& xs) { return !xs.empty(); }, 10s));
  CHECK_THAT(stream.body(),
             Catch::StartsWith("id: 1\nevent: towow.demand.understood\ndata: "
                               "{\"event_id\":\"1\",\"event_type\":"
                               "\"towow.demand.understood\",\"timestamp\":\""));
  const auto& first = stream.events().front();
  CHECK(first.type == "towow.demand.understood");
  CHECK(first.data["payload"]["demand_id"] == demand_id);
  CHECK(first.data["payload"]["surface_demand"] ==
        "An AI meetup needs a venue and a speaker");
  CHECK(first.data["payload"]["capability_tags"] == json({"speaker", "venue"}));
  CHECK(first.data["payload"]["confidence"].is_string());

  finalize_meetup(api, channel_id);
  REQUIRE(stream.read_until(having("towow.proposal.finalized")));
  const auto& xs = stream.events();
  CHECK(ids_of(xs) == one_to(static_cast<int>(xs.size())));
  for (const auto& x : xs) {
    check_framing(x);
    CHECK(x.data["payload"]["demand_id"] == demand_id);
  }
  for (const auto* type :
       {"towow.filter.completed", "towow.channel.created", "towow.demand.broadcast",
        "towow.offer.submitted", "towow.proposal.distributed",
        "towow.proposal.feedback", "towow.feedback.evaluated"})
    CHECK(has(xs, type));
  for (const auto& x : xs) {
    const auto& p = x.data["payload"];
    if (x.type == "towow.filter.completed") {
      CHECK(p["candidates_count"] == 2);
      CHECK(p["candidates"].size() == 2);
    } else if (x.type == "towow.channel.created") {
      CHECK(p["participants_count"] == 2);
    } else if (x.type == "towow.offer.submitted") {
      CHECK(p["response_type"] == "offer");
      CHECK(p["decision"] == "participate");
      CHECK(p["display_name"].is_string());
    } else if (x.type == "towow.feedback.evaluated") {
      CHECK(p["accepts"] == 2);
      CHECK(p["rejects"] == 0);
      CHECK(p["accept_rate"] == 1.0);
      CHECK(p["decision"] == "finalize");
    }
  }
  // The route's refusals.
  auto unknown = api.get(stream_of("d-none"));
  CHECK(unknown.status == 404);
  CHECK(unknown.body["error_code"] == "E002");
  auto bad = api.get(stream_of(demand_id) + "?last_event_id=abc");
  CHECK(bad.status == 400);
  CHECK(bad.body["details"]["field"] == "last_event_id");
}

TEST_CASE("Last-Event-ID resumes a stream across a disconnect with no gap or "
          "duplicate",
          "[integration][sse]") {
  meetup m;
  const auto& serve = m.serve;
  auto& api = m.api;
  const auto& demand_id = m.demand_id;
  const auto& channel_id = m.channel_id;
  sse_client global{serve.port, "/api/v1/events/stream?topics=channel"};
  REQUIRE(!global.headers().empty());
  std::string last;
  {
    sse_client first{serve.port, stream_of(demand_id)};
    REQUIRE(first.read_until(having("towow.demand.broadcast")));
    last = first.events().back().id;
    first.close(); // a forced disconnect
  }
  finalize_meetup(api, channel_id);
  REQUIRE(global.read_until(having("towow.proposal.finalized")));
  sse_client resumed{serve.port, stream_of(demand_id), last};
  REQUIRE(resumed.read_until(having("towow.proposal.finalized")));
  auto after = ids_of(resumed.events());
  REQUIRE_FALSE(after.empty());
  CHECK(after.front() == std::stoi(last) + 1);
  CHECK(after.back() == static_cast<int>(after.size()) + std::stoi(last));
  // A fresh stream replays all of it: the same ids and events.
  sse_client fresh{serve.port, stream_of(demand_id)};
  REQUIRE(fresh.read_until(having("towow.proposal.finalized")));
  const auto& all = fresh.events();
  CHECK(ids_of(all) == one_to(static_cast<int>(all.size())));
  REQUIRE(all.size() == after.size() + static_cast<std::size_t>(std::stoi(last)));
  for (std::size_t i = 0; i < after.size(); ++i)
    CHECK(resumed.events()[i].data_text == all[std::stoul(last) + i].data_text);

  // The global stream resumes too (header or parameter), after its own ids.
  const auto& seen = global.events();
  REQUIRE(seen.size() >= 3);
  auto from = seen[seen.size() - 3].id;
  sse_client again{serve.port,
                   "/api/v1/events/stream?topics=channel&last_event_id=" + from};
  REQUIRE(again.read_until([](const events& xs) { return xs.size() >= 2; }, 10s));
  CHECK(again.events()[0].data_text == seen[seen.size() - 2].data_text);
  CHECK(again.events()[1].data_text == seen[seen.size() - 1].data_text);
}

TEST_CASE("the global stream's topic and id filters", "[integration][sse]") {
  serve_process serve;
  openapi_contract contract;
  api_client api{serve.port, contract};
  sse_client channel{serve.port, "/api/v1/events/stream?topics=channel"};
  sse_client lifecycle{serve.port, "/api/v1/events/stream?topics=negotiation"};
  sse_client everything{serve.port, "/api/v1/events/stream"};
  for (auto* x : {&channel, &lifecycle, &everything})
    REQUIRE(!x->headers().empty());
  auto receipt = submit_meetup(api);
  const auto demand_id = receipt["demand_id"].get<std::string>();
  sse_client of_demand{serve.port, "/api/v1/events/stream?topics=channel&demand=" +
                                       demand_id + "&last_event_id=0"};
  sse_client of_other{serve.port, "/api/v1/events/stream?demand=d-other"};
  REQUIRE(!of_demand.headers().empty());
  REQUIRE(!of_other.headers().empty());
  REQUIRE(
      api.post("/api/v1/agents", {{"id", "alice"}, {"brain", {{"kind", "external"}}}})
          .status == 201);
  REQUIRE(api.post("/api/v1/agents", {{"id", "bob"}, {"brain", {{"kind", "external"}}}})
              .status == 201);
  auto created = api.post(
      "/api/v1/negotiations",
      {{"initiator", "alice"},
       {"responder", "bob"},
       {"proposal", {{"amount", 100}, {"currency", "GBP"}, {"description", "x"}}}});
  REQUIRE(created.status == 201);
  const auto negotiation_id = created.body["id"].get<std::string>();
  sse_client of_negotiation{serve.port,
                            "/api/v1/events/stream?negotiation=" + negotiation_id};
  REQUIRE(!of_negotiation.headers().empty());
  REQUIRE(api.post("/api/v1/negotiations/" + negotiation_id + "/messages",
                   {{"message_id", "m1"}, {"from", "bob"}, {"action", "accept"}})
              .status == 200);

  REQUIRE(lifecycle.read_until(having("negotiation.agreed")));
  REQUIRE(everything.read_until(having("negotiation.agreed")));
  REQUIRE(channel.read_until(having("towow.demand.broadcast")));
  REQUIRE(of_demand.read_until(having("towow.demand.broadcast")));
  REQUIRE(of_negotiation.read_until(having("negotiation.agreed")));
  for (const auto& x : lifecycle.events()) {
    check_framing(x);
    CHECK_THAT(x.type, Catch::StartsWith("negotiation."));
  }
  CHECK(lifecycle.events().front().type == "negotiation.started");
  CHECK(lifecycle.events().front().data["payload"]["negotiation_id"] == negotiation_id);
  for (const auto& x : channel.events())
    CHECK_THAT(x.type, Catch::StartsWith("towow."));
  CHECK(has(everything.events(), "towow.demand.understood"));
  CHECK(has(everything.events(), "negotiation.started"));
  // Resumed from 0: the demand's events so far; without an id: live only.
  CHECK(of_demand.events().front().type == "towow.demand.understood");
  sse_client late{serve.port, "/api/v1/events/stream?topics=channel"};
  REQUIRE(!late.headers().empty());
  CHECK_FALSE(late.read_until([](const events& xs) { return !xs.empty(); }, 300ms));
  for (const auto& x : of_demand.events())
    CHECK(x.data["payload"]["demand_id"] == demand_id);
  // The id filter and the ids: the hub's sequence, the same on every stream.
  CHECK_FALSE(has(of_negotiation.events(), "towow.demand.broadcast"));
  const auto& agreed = of_negotiation.events().back();
  for (const auto& x : everything.events())
    if (x.type == "negotiation.agreed")
      CHECK(x.data_text == agreed.data_text);
  CHECK_FALSE(of_other.read_until([](const events& xs) { return !xs.empty(); }, 300ms));
  // Filters are checked.
  auto bad = api.get("/api/v1/events/stream?topics=channel,colours");
  CHECK(bad.status == 400);
  CHECK(bad.body["details"]["field"] == "topics");
  CHECK(api.get("/api/v1/events/stream?colour=red").status == 400);
}

TEST_CASE("a slow client is cut off while another keeps receiving every event",
          "[integration][sse]") {
  serve_process serve{
      {},
      {"PARLEY_SERVE_SSE_QUEUE_BYTES=262144", "PARLEY_SERVE_SSE_REPLAY_EVENTS=100"}};
  openapi_contract contract;
  api_client api{serve.port, contract};
  REQUIRE(
      api.post("/api/v1/agents", parley::test::channel_agent("hall", "venue")).status ==
      201);
  const std::string path = "/api/v1/events/stream?topics=channel";
  sse_client slow{serve.port, path, {}, 4096};
  sse_client fast{serve.port, path};
  REQUIRE(!slow.headers().empty());
  REQUIRE(!fast.headers().empty());
  auto understood = [](const events& xs) {
    std::size_t n = 0;
    for (const auto& x : xs)
      n += x.type == "towow.demand.understood" ? 1 : 0;
    return n;
  };
  // Long demands, so that what the slow client does not read soon exceeds
  // its queue and what the kernel buffers.
  const std::string filler(6000, 'v');
  std::size_t submitted = 0;
  auto deadline = std::chrono::steady_clock::now() + 60s;
  while (fast.body().size() < 6u * 1024 * 1024 &&
         std::chrono::steady_clock::now() < deadline) {
    auto r = api.post("/api/v1/demand/submit",
                      {{"raw_input", "a venue " + std::to_string(submitted) + filler}});
    REQUIRE(r.status == 200);
    ++submitted;
    fast.read_until([&](const events& xs) { return understood(xs) == submitted; }, 10s);
  }
  INFO(submitted << " demands, " << fast.body().size() << " bytes");
  REQUIRE(understood(fast.events()) == submitted);
  auto ids = ids_of(fast.events());
  for (std::size_t i = 1; i < ids.size(); ++i)
    CHECK(ids[i] > ids[i - 1]);
  // The slow client gets what was written before it was cut, then the end.
  CHECK(slow.read_until_closed(20s));
  CHECK(slow.events().size() < fast.events().size());
  for (std::size_t i = 0; i < slow.events().size(); ++i)
    CHECK(slow.events()[i].data_text == fast.events()[i].data_text);
  // /metrics counts it: one stream open (the fast one), one dropped.
  auto metrics = api.get("/metrics");
  REQUIRE(metrics.status == 200);
  CHECK_THAT(metrics.text, Catch::Contains("\nparley_sse_clients 1\n"));
  CHECK_THAT(metrics.text, Catch::Contains("\nparley_sse_dropped_clients_total 1\n"));
}

TEST_CASE("an idle stream gets keep-alive comments", "[integration][sse]") {
  serve_process serve{{}, {"PARLEY_SERVE_SSE_KEEPALIVE_MS=100"}};
  sse_client stream{serve.port, "/api/v1/events/stream"};
  REQUIRE(!stream.headers().empty());
  stream.read_until([&stream](const events&) { return stream.comments() >= 2; }, 5s);
  CHECK(stream.comments() >= 2);
  CHECK_THAT(stream.body(), Catch::StartsWith(": keep-alive\n\n"));
}

TEST_CASE("SIGTERM stops serve within 5 s with a stream open", "[integration][sse]") {
  meetup m;
  sse_client stream{m.serve.port, stream_of(m.demand_id)};
  sse_client global{m.serve.port, "/api/v1/events/stream"};
  REQUIRE(stream.read_until([](const events& xs) { return !xs.empty(); }, 10s));
  REQUIRE(!global.headers().empty());
  auto start = std::chrono::steady_clock::now();
  m.serve.process.signal(SIGTERM);
  CHECK(stream.read_until_closed(5s));
  CHECK(global.read_until_closed(5s));
  auto code = m.serve.process.wait_exit(5s);
  REQUIRE(code);
  CHECK(*code == 0);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
}

} // namespace integration_sse_test
