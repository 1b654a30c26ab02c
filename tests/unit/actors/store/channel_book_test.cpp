#include "actors/store/channel_book.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "actors/store/channel_codec.hpp"
#include "support/channel_story.hpp"

namespace unit_actors_store_channel_book_test {

using parley::actors::store::channel_book;
using parley::actors::store::channel_fold;
using parley::actors::store::decode_channel_event;
using parley::actors::store::type_name;
using parley::test::channel_ending;
using parley::test::channel_story;
namespace msg = parley::messages;

namespace {

constexpr std::int64_t t0 = 1'700'000'000'000;

} // namespace

TEST_CASE("a channel's row follows its events: status, round, proposal, counts",
          "[unit]") {
  auto story = channel_story("c-1", "d-1", t0, channel_ending::finalized);
  channel_fold fold;
  std::vector<std::string> statuses;
  std::vector<std::int32_t> responses;
  std::vector<std::int32_t> feedback;
  for (const auto& x : story) {
    fold.apply(x);
    statuses.push_back(fold.record().status);
    responses.push_back(fold.record().responses);
    feedback.push_back(fold.record().feedback);
  }
  CHECK(statuses == std::vector<std::string>{"created", "collecting", "collecting",
                                             "collecting", "collecting", "negotiating",
                                             "negotiating", "negotiating",
                                             "negotiating", "finalized"});
  // Bob's second offer replaces his first: two agents answered.
  CHECK(responses == std::vector<std::int32_t>{0, 0, 1, 1, 2, 2, 2, 2, 2, 2});
  CHECK(feedback == std::vector<std::int32_t>{0, 0, 0, 0, 0, 0, 1, 2, 2, 2});
  const auto& r = fold.record();
  CHECK(r.channel_id == "c-1");
  CHECK(r.demand_id == "d-1");
  CHECK(r.round == 1);
  REQUIRE(r.proposal);
  CHECK(r.proposal->proposal_id == "c-1-p1");
  CHECK(r.created_at == t0);
  CHECK(r.updated_at == story.back().at_ms);
  CHECK(fold.events() == 10);
  CHECK(fold.terminal());
}

TEST_CASE("a new round puts the response count back to zero", "[unit]") {
  auto story = channel_story("c-1", "d-1", t0, channel_ending::open);
  msg::channel_event evaluated;
  evaluated.kind = msg::channel_event_kind::feedback_evaluated;
  evaluated.channel_id = "c-1";
  msg::channel_event started = evaluated;
  started.kind = msg::channel_event_kind::round_started;
  started.round = 2;
  msg::channel_event broadcast = started;
  broadcast.kind = msg::channel_event_kind::demand_broadcast;
  channel_fold fold;
  for (const auto& x : story)
    fold.apply(x);
  fold.apply(evaluated);
  CHECK(fold.record().status == "negotiating");
  fold.apply(started);
  fold.apply(broadcast);
  CHECK(fold.record().status == "collecting");
  CHECK(fold.record().round == 2);
  CHECK(fold.record().responses == 0);
  // The round's proposal stays the latest one until the next.
  CHECK(fold.record().proposal);
  CHECK_FALSE(fold.terminal());
}

TEST_CASE("a sub-channel's row carries its parent and depth", "[unit]") {
  msg::channel_event created;
  created.kind = msg::channel_event_kind::created;
  created.channel_id = "c-2";
  created.demand_id = "d-1";
  created.setup = msg::channel_setup{};
  created.setup->parent_channel_id = "c-1";
  created.setup->depth = 1;
  channel_fold fold;
  fold.apply(created);
  CHECK(fold.record().parent_channel_id == "c-1");
  CHECK(fold.record().depth == 1);
}

TEST_CASE("the book numbers each channel's events and keeps its latest row per batch",
          "[unit]") {
  channel_book book;
  auto one = channel_story("c-1", "d-1", t0, channel_ending::open);
  auto two = channel_story("c-2", "d-1", t0, channel_ending::failed);
  msg::channel_event understood;
  understood.kind = msg::channel_event_kind::demand_understood;
  understood.demand_id = "d-1";
  CHECK_FALSE(book.add(understood)); // no channel yet: nothing to write
  CHECK(book.empty());
  for (std::size_t i = 0; i < two.size(); ++i) {
    if (i < one.size())
      CHECK(book.add(one[i]));
    CHECK(book.add(two[i]));
  }
  CHECK(book.events() == one.size() + two.size());
  auto ops = book.take();
  CHECK(book.empty());
  REQUIRE(ops.rows.size() == 2);
  CHECK(ops.rows[0].channel_id == "c-1");
  CHECK(ops.rows[0].status == "negotiating");
  CHECK(ops.rows[1].channel_id == "c-2");
  CHECK(ops.rows[1].status == "failed");
  std::int64_t next_one = 1;
  std::int64_t next_two = 1;
  for (const auto& e : ops.events) {
    auto& next = e.channel_id == "c-1" ? next_one : next_two;
    const auto& story = e.channel_id == "c-1" ? one : two;
    // The stored body is the event, read back whole.
    auto back = decode_channel_event(ops.body(e), e.body_size);
    CHECK(back == story.at(static_cast<std::size_t>(next - 1)));
    CHECK(e.seq == next++);
    CHECK(e.kind == back.kind);
  }
  CHECK(type_name(ops.events.back().kind) == "negotiation.failed");
  // An ended channel is no longer followed; an open one is.
  CHECK(book.knows("c-1"));
  CHECK_FALSE(book.knows("c-2"));
}

TEST_CASE("a restored channel goes on from its stored events", "[unit]") {
  auto story = channel_story("c-1", "d-1", t0, channel_ending::finalized);
  std::vector<msg::channel_event> stored(story.begin(), story.begin() + 7);
  channel_book book;
  book.restore("c-1", stored);
  CHECK(book.knows("c-1"));
  CHECK(book.empty());
  for (std::size_t i = 7; i < story.size(); ++i)
    book.add(story[i]);
  auto ops = book.take();
  REQUIRE(ops.events.size() == 3);
  CHECK(ops.events.front().seq == 8);
  REQUIRE(ops.rows.size() == 1);
  CHECK(ops.rows[0].feedback == 2);
  CHECK(ops.rows[0].responses == 2);
  CHECK(ops.rows[0].created_at == t0);
  CHECK(ops.rows[0].status == "finalized");
}

TEST_CASE("a channel's row is written when it begins, changes status or round, "
          "and ends, and its proposal only then",
          "[unit]") {
  auto story = channel_story("c-1", "d-1", t0, channel_ending::finalized);
  channel_book book;
  std::size_t distributed = 0;
  while (story[distributed].kind != msg::channel_event_kind::proposal_distributed)
    book.add(story[distributed++]);
  auto before = book.take();
  REQUIRE(before.rows.size() == 1);
  CHECK(before.rows[0].status == "collecting");
  CHECK(before.rows[0].responses == 2);
  CHECK_FALSE(before.rows[0].proposal);
  book.add(story[distributed]);
  auto negotiating = book.take();
  REQUIRE(negotiating.rows.size() == 1);
  CHECK(negotiating.rows[0].status == "negotiating");
  CHECK_FALSE(negotiating.rows[0].proposal);
  // A feedback changes neither status nor round: no row; the events say it.
  book.add(story[distributed + 1]);
  auto feedback = book.take();
  CHECK(feedback.rows.empty());
  CHECK(feedback.events.size() == 1);
  std::vector<msg::channel_event> stored(story.begin(),
                                         story.begin() + distributed + 2);
  auto now = parley::actors::store::current_record(negotiating.rows[0], stored);
  CHECK(now.feedback == 1);
  CHECK(now.status == "negotiating");
  CHECK(now.updated_at == story[distributed + 1].at_ms);
  REQUIRE(now.proposal);
  CHECK(*now.proposal == *story[distributed].proposal);
  for (auto i = distributed + 2; i < story.size(); ++i)
    book.add(story[i]);
  auto ended = book.take();
  REQUIRE(ended.rows.size() == 1);
  CHECK(ended.rows[0].status == "finalized");
  CHECK(ended.rows[0].feedback == 2);
  CHECK(ended.rows[0].updated_at == story.back().at_ms);
  REQUIRE(ended.rows[0].proposal);
  CHECK(*ended.rows[0].proposal == *story.back().proposal);
}

TEST_CASE("an ended channel's record is its last row, whatever its events", "[unit]") {
  auto story = channel_story("c-1", "d-1", t0, channel_ending::failed);
  channel_fold fold;
  for (const auto& x : story)
    fold.apply(x);
  auto row = fold.record();
  CHECK(parley::actors::store::current_record(row, {}) == row);
  CHECK(parley::actors::store::current_record(row, {story.front()}) == row);
  // An open one without stored events is its row.
  auto open = row;
  open.status = "collecting";
  CHECK(parley::actors::store::current_record(open, {}) == open);
}

} // namespace unit_actors_store_channel_book_test
