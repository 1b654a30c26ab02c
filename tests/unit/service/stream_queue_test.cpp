#include "service/stream_queue.hpp"

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_service_stream_queue_test {

using parley::service::shared_bytes;
using parley::service::stream_queue;

namespace {

shared_bytes bytes(std::size_t n) {
  return std::make_shared<const std::string>(n, 'x');
}

} // namespace

TEST_CASE("a stream queue wakes its writer once per batch", "[unit][sse]") {
  std::vector<bool> wakes;
  stream_queue q{100, [&wakes](bool overflow) {
                   wakes.push_back(overflow);
                 }};
  CHECK(q.push(bytes(10)));
  CHECK(q.push(bytes(10)));
  CHECK(wakes == std::vector<bool>{false});
  auto batch = q.take();
  CHECK(batch.size() == 2);
  // Written while more came: the writer takes them without a wake.
  CHECK(q.push(bytes(10)));
  CHECK(wakes.size() == 1);
  q.written(20);
  CHECK(q.take().size() == 1);
  q.written(10);
  CHECK(q.take().empty());
  // Idle again: the next push wakes it.
  CHECK(q.push(bytes(10)));
  CHECK(wakes == std::vector<bool>{false, false});
}

TEST_CASE("a stream queue over its bound closes as dropped", "[unit][sse]") {
  std::vector<bool> wakes;
  stream_queue q{25, [&wakes](bool overflow) {
                   wakes.push_back(overflow);
                 }};
  CHECK(q.push(bytes(10)));
  q.take(); // being written: still counted
  CHECK(q.push(bytes(10)));
  CHECK_FALSE(q.push(bytes(10)));
  CHECK(wakes == std::vector<bool>{false, true});
  CHECK_FALSE(q.open());
  CHECK(q.dropped());
  CHECK_FALSE(q.push(bytes(1)));
  CHECK(q.take().empty());
  CHECK_FALSE(q.close());
}

TEST_CASE("a closed stream queue takes nothing and wakes nobody", "[unit][sse]") {
  int wakes = 0;
  stream_queue q{100, [&wakes](bool) {
                   ++wakes;
                 }};
  CHECK(q.close());
  CHECK_FALSE(q.open());
  CHECK_FALSE(q.dropped());
  CHECK_FALSE(q.push(bytes(1)));
  CHECK(wakes == 0);
}

} // namespace unit_service_stream_queue_test
