#include "actors/common/deadline_queue.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_common_deadline_queue_test {

using parley::actors::deadline_queue;

namespace {

/// The requests still waiting, as (key, ticket).
using waiting = std::set<std::pair<std::string, std::uint64_t>>;

auto waits_in(const waiting& w) {
  return [&w](const std::string& key, std::uint64_t ticket) {
    return w.count({key, ticket}) > 0;
  };
}

} // namespace

TEST_CASE("due deadlines of waiting requests are given up, the earliest first",
          "[unit]") {
  deadline_queue<int, std::string> q;
  waiting w;
  for (auto [at, key] : {std::pair{10, "a"}, {20, "b"}, {30, "c"}})
    w.insert({key, q.push(at, key)});
  CHECK(q.next() == 10);

  std::vector<std::string> given_up;
  auto give_up = [&](const std::string& key, std::uint64_t ticket) {
    given_up.push_back(key);
    w.erase({key, ticket});
  };
  q.take_due(9, waits_in(w), give_up);
  CHECK(given_up.empty());
  q.take_due(20, waits_in(w), give_up);
  CHECK(given_up == std::vector<std::string>{"a", "b"});
  CHECK(q.next() == 30);
}

TEST_CASE("an answered request's deadline leaves once it is at the front", "[unit]") {
  deadline_queue<int, std::string> q;
  waiting w;
  auto a = q.push(10, "a");
  auto b = q.push(20, "b");
  w.insert({"a", a});
  w.insert({"b", b});

  w.erase({"b", b}); // answered behind a waiting one: kept for now
  q.trim(waits_in(w));
  CHECK(q.next() == 10);
  w.erase({"a", a});
  q.trim(waits_in(w));
  CHECK_FALSE(q.next());
}

TEST_CASE("a later request under the same key has a ticket of its own", "[unit]") {
  deadline_queue<int, std::string> q;
  waiting w;
  auto first = q.push(10, "k");
  auto second = q.push(20, "k");
  CHECK(first != second);
  w.insert({"k", second}); // the first was answered; the second waits

  std::vector<std::uint64_t> given_up;
  q.take_due(10, waits_in(w),
             [&](const std::string&, std::uint64_t t) { given_up.push_back(t); });
  CHECK(given_up.empty()); // the first's deadline does not give up the second
  CHECK(q.next() == 20);
  q.take_due(20, waits_in(w), [&](const std::string&, std::uint64_t t) {
    given_up.push_back(t);
    w.erase({"k", t});
  });
  CHECK(given_up == std::vector<std::uint64_t>{second});
  CHECK_FALSE(q.next());
}

} // namespace unit_actors_common_deadline_queue_test
