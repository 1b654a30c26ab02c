#include "cli/run_tracker.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_cli_run_tracker_test {

using parley::cli::run_tracker;
namespace msg = parley::messages;

namespace {

msg::negotiation_event event(msg::negotiation_event_kind kind, std::string id,
                             std::string message_id = {}) {
  msg::negotiation_event x;
  x.kind = kind;
  x.negotiation_id = std::move(id);
  x.room_id = "r";
  x.message_id = std::move(message_id);
  return x;
}

msg::problem_event problem(msg::error_code code, std::string room,
                           std::string negotiation_id, std::string agent_id,
                           std::string message_id) {
  return msg::problem_event{msg::severity::error, code, "why", 0,
                            std::move(room),      std::move(negotiation_id),
                            std::move(agent_id),  std::move(message_id)};
}

using kind = msg::negotiation_event_kind;

} // namespace

TEST_CASE("a run is idle once its start's negotiation ended, in any order",
          "[unit]") {
  // What a start leads to: its event, then the end. The end may arrive first
  // (the order the old runner got wrong); either way nothing stays open.
  std::vector<std::function<void(run_tracker&)>> steps = {
      [](run_tracker& t) { t.on(event(kind::started, "n1", "start:1")); },
      [](run_tracker& t) { t.on(event(kind::updated, "n1", "b:1")); },
      [](run_tracker& t) { t.on(event(kind::agreed, "n1", "a:2")); },
  };
  std::vector<std::size_t> order{0, 1, 2};
  do {
    run_tracker t;
    t.start_sent("r", "a", "start:1");
    CHECK_FALSE(t.idle());
    for (auto i : order)
      steps[i](t);
    INFO("order " << order[0] << order[1] << order[2]);
    CHECK(t.idle());
    CHECK(t.pending_starts() == 0);
    CHECK(t.open_negotiations() == 0);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST_CASE("a started negotiation keeps the run open until it ends", "[unit]") {
  run_tracker t;
  t.start_sent("r", "a", "start:1");
  CHECK(t.on(event(kind::started, "n1", "start:1")) == 1);
  CHECK(t.pending_starts() == 0);
  CHECK_FALSE(t.idle());
  t.on(event(kind::updated, "n1"));
  CHECK_FALSE(t.idle());
  t.on(event(kind::expired, "n1"));
  CHECK(t.idle());
}

TEST_CASE("a refused start settles it", "[unit]") {
  run_tracker t;
  t.start_sent("r", "a", "start:1");
  // Another agent's problem with the same message id settles nothing.
  CHECK(t.on(problem(msg::error_code::negotiation_in_progress, "r", "", "z",
                     "start:1")) == 0);
  CHECK(t.on(problem(msg::error_code::negotiation_in_progress, "r", "", "a",
                     "start:1")) == 1);
  CHECK(t.idle());
}

TEST_CASE("negotiations opened by agents count too", "[unit]") {
  run_tracker t;
  CHECK(t.on(event(kind::started, "n7", "llm:3")) == 0);
  CHECK_FALSE(t.idle());
  t.on(event(kind::rejected, "n7"));
  CHECK(t.idle());
}

TEST_CASE("a lost node settles what went through its rooms", "[unit]") {
  run_tracker t;
  t.start_sent("r", "a", "start:1");
  t.start_sent("other", "c", "start:2");
  t.on(event(kind::started, "n1", "start:1"));
  t.barrier_sent(4, "r");
  CHECK(t.on(problem(msg::error_code::node_unavailable, "r", "", "", "")) == 0);
  CHECK(t.open_negotiations() == 0);
  CHECK(t.pending_barriers() == 0);
  CHECK(t.pending_starts() == 1);
  CHECK(t.on(problem(msg::error_code::node_unavailable, "other", "", "", "")) == 1);
  CHECK(t.idle());
}

TEST_CASE("a negotiation aborted with its room closes", "[unit]") {
  run_tracker t;
  t.on(event(kind::started, "n1"));
  t.on(problem(msg::error_code::node_unavailable, "r", "n1", "", ""));
  CHECK(t.idle());
}

TEST_CASE("ballots and auctions stay open until their result or refusal", "[unit]") {
  run_tracker t;
  t.ballot_opened("b1");
  t.ballot_opened("b2");
  t.auction_opened("x1");
  msg::ballot_event vote;
  vote.kind = msg::ballot_event_kind::vote;
  vote.ballot_id = "b1";
  t.on(vote);
  CHECK_FALSE(t.idle());
  auto result = vote;
  result.kind = msg::ballot_event_kind::result;
  t.on(result);
  t.on(problem(msg::error_code::invalid_ballot, "", "b2", "", ""));
  CHECK_FALSE(t.idle());
  msg::auction_event won;
  won.kind = msg::auction_event_kind::result;
  won.auction_id = "x1";
  t.on(won);
  CHECK(t.idle());
}

TEST_CASE("a vote or bid the run sent keeps it open until its event or refusal",
          "[unit]") {
  run_tracker t;
  t.vote_sent("b1", "ann");
  t.vote_sent("b1", "ann"); // twice: the second one is refused (E023)
  t.vote_sent("b1", "bob");
  t.bid_sent("x1", "ann");
  msg::ballot_event cast;
  cast.kind = msg::ballot_event_kind::vote;
  cast.ballot_id = "b1";
  cast.cast = msg::vote{"b1", "ann", "approve"};
  t.on(cast);
  t.on(problem(msg::error_code::already_cast, "", "b1", "ann", ""));
  CHECK_FALSE(t.idle());
  // A refusal of another agent's vote, or of a vote on another ballot,
  // settles nothing.
  t.on(problem(msg::error_code::voting_closed, "", "b1", "cat", ""));
  t.on(problem(msg::error_code::voting_closed, "", "b2", "bob", ""));
  CHECK_FALSE(t.idle());
  // A vote after the result is refused (E024): that answers it too.
  t.on(problem(msg::error_code::voting_closed, "", "b1", "bob", ""));
  CHECK_FALSE(t.idle());
  msg::auction_event bid;
  bid.kind = msg::auction_event_kind::bid;
  bid.auction_id = "x1";
  bid.placed = msg::bid{"x1", "ann", 0.5, 0.5, 1000};
  t.on(bid);
  CHECK(t.idle());
}

TEST_CASE("barriers keep the run open until they are back", "[unit]") {
  run_tracker t;
  t.barrier_sent(1, "r");
  t.barrier_sent(2, "");
  t.barrier_back(1);
  CHECK_FALSE(t.idle());
  t.barrier_back(2);
  CHECK(t.idle());
}

TEST_CASE("a run waits for each channel it saw created until the channel ends",
          "[unit]") {
  using ckind = msg::channel_event_kind;
  auto channel = [](ckind k, std::string id) {
    msg::channel_event x;
    x.kind = k;
    x.channel_id = std::move(id);
    return x;
  };
  run_tracker t;
  t.on(channel(ckind::demand_understood, ""));
  CHECK(t.idle());
  t.on(channel(ckind::created, "c-1"));
  t.on(channel(ckind::created, "c-2"));
  t.on(channel(ckind::offer_submitted, "c-1"));
  CHECK(t.open_channels() == 2);
  CHECK_FALSE(t.idle());
  t.on(channel(ckind::finalized, "c-1"));
  t.on(channel(ckind::feedback_evaluated, "c-2"));
  CHECK_FALSE(t.idle());
  t.on(channel(ckind::failed, "c-2"));
  CHECK(t.idle());
  t.on(channel(ckind::created, "c-3"));
  t.on(channel(ckind::force_finalized, "c-3"));
  CHECK(t.idle());
}

} // namespace unit_cli_run_tracker_test
