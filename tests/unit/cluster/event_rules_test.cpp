// The event exchange's rules (cluster/event_rules.hpp): a peer's outbox is
// bounded and sends one batch at a time, again after a loss; a node shows
// each event of another node once and never its own.
#include "cluster/event_rules.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_cluster_event_rules_test {

using parley::cluster::arrival;
using parley::cluster::event_origins;
using parley::cluster::event_outbox;
using parley::messages::cluster_event;

namespace {

event_outbox::event_ptr numbered(std::uint64_t n) {
  cluster_event x;
  x.sequence = n;
  x.payload = "{\"n\":" + std::to_string(n) + "}";
  return std::make_shared<const cluster_event>(std::move(x));
}

std::vector<std::uint64_t> sequences(const std::vector<cluster_event>& xs) {
  std::vector<std::uint64_t> out;
  for (const auto& x : xs)
    out.push_back(x.sequence);
  return out;
}

using seqs = std::vector<std::uint64_t>;

} // namespace

TEST_CASE("an outbox sends one batch at a time, oldest first", "[unit][cluster]") {
  event_outbox box{100};
  for (std::uint64_t n = 1; n <= 5; ++n)
    CHECK(box.push(numbered(n)) == 0);
  CHECK(sequences(box.take(3)) == seqs{1, 2, 3});
  CHECK(box.busy());
  CHECK(box.in_flight() == 3);
  // Nothing more while the batch is in flight.
  CHECK(box.take(3).empty());
  box.push(numbered(6));
  box.acknowledged();
  CHECK_FALSE(box.busy());
  CHECK(box.size() == 3);
  CHECK(sequences(box.take(10)) == seqs{4, 5, 6});
  box.acknowledged();
  CHECK(box.size() == 0);
  CHECK(box.take(10).empty());
  CHECK_FALSE(box.busy());
}

TEST_CASE("a batch that may be lost goes again, first", "[unit][cluster]") {
  event_outbox box{100};
  for (std::uint64_t n = 1; n <= 4; ++n)
    box.push(numbered(n));
  CHECK(sequences(box.take(2)) == seqs{1, 2});
  box.push(numbered(5));
  box.lost();
  CHECK_FALSE(box.busy());
  CHECK(sequences(box.take(10)) == seqs{1, 2, 3, 4, 5});
}

TEST_CASE("an outbox keeps at most its limit, dropping the oldest event not in flight",
          "[unit][cluster]") {
  event_outbox box{3};
  for (std::uint64_t n = 1; n <= 3; ++n)
    CHECK(box.push(numbered(n)) == 0);
  CHECK(sequences(box.take(1)) == seqs{1});
  // 2 is the oldest waiting: it goes, 1 (in flight) stays.
  CHECK(box.push(numbered(4)) == 1);
  CHECK(box.size() == 3);
  box.acknowledged();
  CHECK(sequences(box.take(10)) == seqs{3, 4});
  CHECK(box.push(numbered(5)) == 0);
  // 5 is the oldest waiting.
  CHECK(box.push(numbered(6)) == 1);
  box.lost();
  CHECK(sequences(box.take(10)) == seqs{3, 4, 6});
  // Everything in flight: the newest event is the one dropped.
  CHECK(box.push(numbered(7)) == 1);
  CHECK(box.size() == 3);
  box.lost();
  CHECK(sequences(box.take(10)) == seqs{3, 4, 6});
}

TEST_CASE("a node shows each event of another node once and never its own",
          "[unit][cluster]") {
  event_origins seen{7};
  CHECK(seen.arrive(1, 1) == arrival::show);
  CHECK(seen.arrive(1, 2) == arrival::show);
  // The same batch again (its acknowledgement was lost).
  CHECK(seen.arrive(1, 1) == arrival::duplicate);
  CHECK(seen.arrive(1, 2) == arrival::duplicate);
  // A gap (events dropped for this node) is not waited for.
  CHECK(seen.arrive(1, 5) == arrival::show);
  CHECK(seen.arrive(1, 4) == arrival::duplicate);
  // Another origin counts on its own; this node's own stream never shows.
  CHECK(seen.arrive(2, 1) == arrival::show);
  CHECK(seen.arrive(7, 1) == arrival::own);
  CHECK(seen.arrive(7, 100) == arrival::own);
  CHECK(seen.size() == 2);
}

TEST_CASE("a node forgets the origin it heard from least recently first",
          "[unit][cluster]") {
  event_origins seen{0, 2};
  CHECK(seen.arrive(1, 10) == arrival::show);
  CHECK(seen.arrive(2, 10) == arrival::show);
  CHECK(seen.arrive(1, 11) == arrival::show);
  // A third origin: 2 is forgotten, 1 is kept.
  CHECK(seen.arrive(3, 1) == arrival::show);
  CHECK(seen.size() == 2);
  CHECK(seen.arrive(1, 11) == arrival::duplicate);
  CHECK(seen.arrive(2, 10) == arrival::show);
}

} // namespace unit_cluster_event_rules_test
