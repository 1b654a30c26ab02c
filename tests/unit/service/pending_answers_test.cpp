#include "service/pending_answers.hpp"

#include <chrono>
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_service_pending_answers_test {

using namespace std::chrono_literals;
using parley::service::pending_answers;
using parley::service::respond_function;
using parley::service::response;

namespace {

/// A respond_function that counts its calls in `calls`.
respond_function counting(std::shared_ptr<int> calls) {
  return [calls](response) {
    ++*calls;
  };
}

const pending_answers::time_point t0{};

} // namespace

TEST_CASE("an answer is given once: by its result, or at its deadline", "[unit]") {
  pending_answers owed;
  auto calls = std::make_shared<int>(0);
  auto a = owed.open(counting(calls), t0 + 5s);
  auto b = owed.open(counting(calls), t0 + 6s);
  CHECK(owed.size() == 2);
  CHECK(owed.next_deadline() == t0 + 5s);

  auto first = owed.take(a);
  REQUIRE(first);
  first(response{});
  CHECK_FALSE(owed.take(a)); // given: a late result finds nothing
  CHECK(owed.next_deadline() == t0 + 6s);

  CHECK(owed.take_due(t0 + 5999ms).empty());
  auto due = owed.take_due(t0 + 6s);
  REQUIRE(due.size() == 1);
  due.front()(response{});
  CHECK_FALSE(owed.take(b)); // refused at its deadline: its result comes too late
  CHECK(owed.size() == 0);
  CHECK_FALSE(owed.next_deadline());
  CHECK(*calls == 2);
}

TEST_CASE("the deadlines of answers given out of order leave once the front is given",
          "[unit]") {
  pending_answers owed;
  auto calls = std::make_shared<int>(0);
  std::vector<std::uint64_t> tickets;
  for (int i = 0; i < 4; ++i)
    tickets.push_back(owed.open(counting(calls), t0 + std::chrono::seconds{i}));
  CHECK(owed.take(tickets[2]));
  CHECK(owed.take(tickets[1]));
  CHECK(owed.next_deadline() == t0); // the first still waits
  CHECK(owed.take(tickets[0]));
  CHECK(owed.next_deadline() == t0 + 3s);
  auto due = owed.take_due(t0 + 10s);
  CHECK(due.size() == 1);
  CHECK(owed.size() == 0);
}

} // namespace unit_service_pending_answers_test
