#include "actors/metrics/instruments.hpp"

#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/metrics/node_metrics.hpp"

namespace unit_actors_metrics_instruments_test {

using namespace parley::actors::metrics;

TEST_CASE("a histogram counts each observation in the first bucket that holds it",
          "[unit][metrics]") {
  histogram h{{1, 5, 10}};
  for (auto x : {0, 1, 2, 5, 6, 10, 11, 1000})
    h.observe(x);
  auto snap = h.read();
  CHECK(snap.cumulative == std::vector<std::uint64_t>{2, 4, 6, 8});
  CHECK(snap.count() == 8);
  CHECK(snap.sum == 0 + 1 + 2 + 5 + 6 + 10 + 11 + 1000);
}

TEST_CASE("concurrent updates lose nothing", "[unit][metrics]") {
  counter c;
  histogram h{{10}};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        c.add();
        h.observe(i % 20);
      }
    });
  for (auto& t : threads)
    t.join();
  CHECK(c.value() == 40000);
  auto snap = h.read();
  CHECK(snap.count() == 40000);
  CHECK(snap.cumulative[0] == 22000); // 0..10 of every 20
}

TEST_CASE("exponential bounds grow by the factor and stay strictly increasing",
          "[unit][metrics]") {
  CHECK(exponential_bounds(100, 2, 4) == std::vector<std::int64_t>{100, 200, 400, 800});
  CHECK(exponential_bounds(0, 1, 3) == std::vector<std::int64_t>{1, 2, 3});
}

TEST_CASE("open negotiations are started and resumed less ended, never below zero",
          "[unit][metrics]") {
  negotiation_metrics m;
  m.started.add(5);
  m.resumed.add(2);
  m.ended[static_cast<std::size_t>(negotiation_outcome::agreed)].add(3);
  m.ended[static_cast<std::size_t>(negotiation_outcome::expired)].add(1);
  CHECK(m.open() == 3);
  m.ended[static_cast<std::size_t>(negotiation_outcome::rejected)].add(10);
  CHECK(m.open() == 0);
}

TEST_CASE("HTTP requests count per route and status, and odd statuses at the ends",
          "[unit][metrics]") {
  http_metrics m{3};
  m.count(0, 200);
  m.count(0, 200);
  m.count(2, 404);
  m.count(1, 42);
  m.count(1, 700);
  m.count(9, 500); // beyond the routes: the last one
  CHECK(m.requests(0, 200) == 2);
  CHECK(m.requests(2, 404) == 1);
  CHECK(m.requests(1, 100) == 1);
  CHECK(m.requests(1, 599) == 1);
  CHECK(m.requests(2, 500) == 1);
  CHECK(m.requests(0, 404) == 0);
}

} // namespace unit_actors_metrics_instruments_test
