#include "actors/store/channel_book.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/channel_story.hpp"

using parley::actors::store::channel_book;
using parley::actors::store::channel_event_of;
using parley::actors::store::channel_fold;
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
    CHECK(e.seq == next++);
    // The stored JSON is the event's wire JSON, read back whole.
    auto back = channel_event_of(e.json);
    CHECK(to_string(back.kind) == e.type);
    CHECK(back.at_ms == e.at_ms);
  }
  CHECK(ops.events.back().type == "negotiation.failed");
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
