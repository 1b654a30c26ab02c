#include "actors/room/history.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

#include "messages/compact_codec.hpp"

namespace unit_actors_room_history_test {

using parley::actors::room::history;
using namespace parley::messages;

namespace {

constexpr std::int64_t t0 = 1'700'000'000'000;

proposal offer(std::int64_t amount) {
  proposal x;
  x.amount = amount;
  x.currency = "GBP";
  return x;
}

/// What a W1 negotiation ends with: four rounds between two agents.
negotiation_record w1_record(const std::string& id) {
  negotiation_record x;
  x.id = id;
  x.room_id = "room-123456";
  x.intent_id = "4f1c2a9e-1b2c-4d3e-8f40-123456789abc";
  x.status = negotiation_status::accepted;
  x.initiator = "i123456";
  x.responder = "r123456";
  x.rounds = {
      negotiation_round{1, "i123456", offer(10456), round_action::propose, "", t0, "i:1"},
      negotiation_round{2, "r123456", offer(8887), round_action::counter, "", t0 + 1,
                        "r:1"},
      negotiation_round{3, "i123456", offer(9671), round_action::counter, "", t0 + 1,
                        "i:2"},
      negotiation_round{4, "r123456", offer(9671), round_action::accept, "", t0 + 2,
                        "r:2"},
  };
  x.current_proposal = offer(9671);
  x.final_proposal = offer(9671);
  x.convergence_score = 0.92;
  x.created_at = t0;
  x.updated_at = t0 + 2;
  x.expires_at = t0 + 120000;
  return x;
}

template <class T> T round_trip(const T& x) {
  std::string bytes;
  compact_writer{bytes}(x);
  T y;
  compact_reader{bytes.data(), bytes.size()}(y);
  return y;
}

/// `x` as a history keeps it.
negotiation_record without_message_ids(negotiation_record x) {
  for (auto& round : x.rounds)
    round.message_id.clear();
  return x;
}

} // namespace

TEST_CASE("a history gives its records back, oldest first, and knows their ids",
          "[unit]") {
  history h{3};
  CHECK(h.empty());
  CHECK(h.newest_id().empty());
  for (int i = 1; i <= 5; ++i)
    h.add(w1_record("neg_" + std::to_string(i)));
  auto records = h.records();
  REQUIRE(records.size() == 3);
  CHECK(records[0] == without_message_ids(w1_record("neg_3")));
  CHECK(records[2] == without_message_ids(w1_record("neg_5")));
  CHECK(h.newest_id() == "neg_5");
  CHECK(h.contains("neg_3"));
  CHECK_FALSE(h.contains("neg_2"));
  CHECK_FALSE(h.contains("neg_"));
}

TEST_CASE("a history with a limit of 0 keeps nothing", "[unit]") {
  history h{0};
  h.add(w1_record("neg_1"));
  CHECK(h.empty());
  CHECK(h.bytes() == 0);
  CHECK_FALSE(h.contains("neg_1"));
}

TEST_CASE("a W1 record packs into under 200 bytes", "[unit]") {
  // Agent ids, the currency and timestamps repeat; each repeat costs a byte
  // or two (the same record written plainly takes over 300).
  history h{1};
  h.add(w1_record("neg_mwt6zycb_vq3o_room-123456"));
  CHECK(h.bytes() < 200);
}

TEST_CASE("compact integers round-trip at every size and sign", "[unit]") {
  constexpr auto lo = std::numeric_limits<std::int64_t>::min();
  constexpr auto hi = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t large = std::int64_t{1} << 40;
  std::vector<std::int64_t> xs{0,         1,          -1,        2,          -2,
                               4,         63,         -64,       10000,      large - 1,
                               large,     -large,     large + 1, t0,         -t0,
                               t0 + 1,    hi,         lo,        hi - 1,     lo + 1,
                               hi / 2,    lo / 2,     t0,        -large - 1, hi};
  CHECK(round_trip(xs) == xs);
  std::vector<std::int32_t> small{0, -1, std::numeric_limits<std::int32_t>::min(),
                                  std::numeric_limits<std::int32_t>::max()};
  CHECK(round_trip(small) == small);
  std::vector<std::uint64_t> unsigned_values{0, 1, std::numeric_limits<std::uint64_t>::max()};
  CHECK(round_trip(unsigned_values) == unsigned_values);
}

TEST_CASE("compact doubles round-trip exactly, hundredths or not", "[unit]") {
  std::vector<double> xs{0.0,  0.7,  0.1,     0.92,  1.0,    -0.25, 123456.78,
                         1e-9, 1e300, 0.12345, -1e15, 1e12,  std::numeric_limits<double>::infinity()};
  CHECK(round_trip(xs) == xs);
  auto negative_zero = round_trip(-0.0);
  CHECK(std::signbit(negative_zero));
  CHECK(std::isnan(round_trip(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("compact strings refer back to earlier equal strings, past the table too",
          "[unit]") {
  std::vector<std::string> xs;
  for (int i = 0; i < 40; ++i)
    xs.push_back("s" + std::to_string(i % 20));
  xs.push_back("");
  xs.push_back("");
  CHECK(round_trip(xs) == xs);
}

TEST_CASE("compact bytes that end early or refer to nothing are refused", "[unit]") {
  std::string bytes;
  compact_writer{bytes}(w1_record("neg_1"));
  negotiation_record y;
  CHECK_THROWS(compact_reader{bytes.data(), bytes.size() / 2}(y));
  std::string reference = "\x03"; // string reference 1, with no string before
  std::string s;
  CHECK_THROWS(compact_reader{reference.data(), reference.size()}(s));
}

TEST_CASE("compact UUIDs and string ends round-trip, odd ones too", "[unit]") {
  std::vector<std::string> xs{"4f1c2a9e-1b2c-4d3e-8f40-123456789abc",
                              "4F1C2A9E-1B2C-4D3E-8F40-123456789ABC",
                              "4f1c2a9e-1b2c-4d3e-8f40-123456789ab",
                              "4f1c2a9e_1b2c-4d3e-8f40-123456789abc",
                              "4f1c2a9e-1b2c-4d3e-8f40-123456789abg",
                              "neg_x_room-1",
                              "room-1",
                              "1",
                              "neg_x_room-1",
                              "x_room-1x"};
  CHECK(round_trip(xs) == xs);
  std::string bytes;
  compact_writer{bytes}(xs[0]);
  CHECK(bytes.size() == 17);
  CHECK(compact_reader::first_string(bytes.data(), bytes.size()) == xs[0]);
  // What a reference costs: an equal string one byte, the end of one two
  // (after the list's length and the first string's length and 12 bytes).
  std::string refs;
  compact_writer{refs}(
      std::vector<std::string>{"neg_x_room-1", "neg_x_room-1", "room-1"});
  CHECK(refs.size() == 1 + 13 + 1 + 2);
}

} // namespace unit_actors_room_history_test
