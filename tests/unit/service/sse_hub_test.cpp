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

} // namespace unit_service_sse_hub_test
