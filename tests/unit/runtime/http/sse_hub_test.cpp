// The hub asks for the topics only the global stream shows at its first
// global stream, once, and not for a demand's stream.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/http/sse_hub.hpp"

using parley::runtime::http::event_stream;
using parley::runtime::http::shared_bytes;
using parley::runtime::http::sse_filter;
using parley::runtime::http::sse_hub;

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
