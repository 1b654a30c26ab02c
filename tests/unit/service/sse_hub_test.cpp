// The hub asks for the topics only the global stream shows at its first
// global stream, once, and not for a demand's stream; a reset frame always
// carries a time.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "actors/store/iso_time.hpp"
#include "messages/consensus.hpp"
#include "messages/topic.hpp"
#include "service/sse_hub.hpp"

namespace unit_service_sse_hub_test {

using parley::service::event_stream;
using parley::service::shared_bytes;
using parley::service::sse_filter;
using parley::service::sse_hub;

namespace {

/// A stream that keeps what it is pushed.
struct kept_stream : event_stream {
  bool push(shared_bytes frame) override {
    frames.push_back(*frame);
    return true;
  }
  bool open() const noexcept override { return true; }
  std::vector<std::string> frames;
};

} // namespace

TEST_CASE("the hub wakes the feed's other topics at the first global stream only",
          "[unit][sse]") {
  sse_hub hub{sse_hub::options{}};
  int woken = 0;
  hub.on_first_global([&woken] { ++woken; });
  hub.subscribe_demand("d-1", 0, std::make_shared<kept_stream>());
  CHECK(woken == 0);
  hub.subscribe(sse_filter{}, false, 0, std::make_shared<kept_stream>());
  CHECK(woken == 1);
  hub.subscribe(sse_filter{}, false, 0, std::make_shared<kept_stream>());
  CHECK(woken == 1);
  CHECK(hub.clients() == 3);
}

TEST_CASE("a reset before any event carries the time it is sent", "[unit][sse]") {
  sse_hub hub{sse_hub::options{}};
  auto stream = std::make_shared<kept_stream>();
  auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  // An id past the last one (from before a restart): everything kept (nothing)
  // comes behind a reset.
  hub.subscribe(sse_filter{}, true, 5, stream);
  REQUIRE(stream->frames.size() == 1);
  const auto& frame = stream->frames[0];
  REQUIRE(frame.rfind("event: reset\ndata: ", 0) == 0);
  auto data = nlohmann::json::parse(frame.substr(frame.find("data: ") + 6));
  std::int64_t at = 0;
  REQUIRE(parley::actors::store::from_iso(data["timestamp"].get<std::string>(), at));
  CHECK(at >= before);
  CHECK(at <= before + 60000);
}

TEST_CASE("a cluster's hub names each event's node, and only its own events reach "
          "its listener",
          "[unit][sse][cluster]") {
  sse_hub hub{sse_hub::options{}};
  int woken = 0;
  hub.on_first_global([&woken] { ++woken; });
  auto stream = std::make_shared<kept_stream>();
  hub.subscribe(sse_filter{}, false, 0, stream);
  REQUIRE(woken == 1);
  // Before it is shared: no node named, nothing heard.
  parley::messages::ballot_event ballot;
  hub.publish(ballot);
  std::vector<std::string> heard;
  hub.share("node-a", [&heard](const parley::service::event_keys& keys, std::int64_t,
                               const std::string& payload) {
    heard.push_back(std::string{parley::messages::name_of(keys.topic)} + " " + payload);
  });
  hub.publish(ballot);
  hub.publish_remote("node-b",
                     {parley::messages::topic::negotiation_started, "n-1", {}, {}}, 0,
                     R"({"from":"b"})");
  REQUIRE(stream->frames.size() == 3);
  auto data = [&](std::size_t i) {
    const auto& f = stream->frames[i];
    return nlohmann::json::parse(f.substr(f.find("data: ") + 6));
  };
  CHECK_FALSE(data(0).contains("node"));
  CHECK(data(1)["node"] == "node-a");
  CHECK(data(2)["node"] == "node-b");
  CHECK(data(2)["payload"]["from"] == "b");
  CHECK(data(2)["event_id"] == "3");
  // The other node's event is shown, never heard (never sent on).
  REQUIRE(heard.size() == 1);
  CHECK(heard[0].rfind("negotiation.propose ", 0) == 0);
  // A cluster's hub hears every topic from its start: once.
  hub.start_global();
  CHECK(woken == 1);
}

TEST_CASE("start_global wakes the feed's other topics before any stream, once",
          "[unit][sse][cluster]") {
  sse_hub hub{sse_hub::options{}};
  int woken = 0;
  hub.on_first_global([&woken] { ++woken; });
  hub.start_global();
  CHECK(woken == 1);
  hub.subscribe(sse_filter{}, false, 0, std::make_shared<kept_stream>());
  hub.start_global();
  CHECK(woken == 1);
}

} // namespace unit_service_sse_hub_test
