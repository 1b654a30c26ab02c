#include "actors/channel/snapshot.hpp"

#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace unit_actors_channel_snapshot_test {

using namespace parley::actors::channel;
using namespace parley::messages;

namespace {

using names = std::vector<std::string>;
using kind = channel_event_kind;

/// Builds the events of a channel the way its actor reports them (compare
/// tests/actor/actors/channel/actor_test.cpp): collab-1 with ann, bob, cat.
struct run {
  std::vector<channel_event> events;
  std::int32_t round = 1;

  channel_event& add(kind k, std::int64_t at_ms) {
    channel_event x;
    x.kind = k;
    x.at_ms = at_ms;
    x.channel_id = "collab-1";
    x.demand_id = "d-1";
    x.round = round;
    events.push_back(x);
    return events.back();
  }

  void created(std::int64_t at_ms) {
    auto& x = add(kind::created, at_ms);
    x.agents = {"ann", "bob", "cat"};
    channel_setup setup;
    setup.surface_demand = "an AI meetup";
    setup.capability_tags = {"venue"};
    for (const auto& id : x.agents)
      setup.candidates.push_back(
          candidate{id, "Agent " + id, "can help", 80, {"venue"}});
    x.setup = setup;
  }

  /// `recovery`: the state checker's reason, if a recovery re-asks.
  void broadcast(std::int64_t at_ms, names agents, std::string recovery = {}) {
    auto& x = add(kind::demand_broadcast, at_ms);
    x.agents = std::move(agents);
    x.reason = std::move(recovery);
  }

  void offer(std::int64_t at_ms, const std::string& agent) {
    offer_response o;
    o.message_id = "o-" + agent + "-" + std::to_string(round);
    o.channel_id = "collab-1";
    o.agent_id = agent;
    o.contribution = agent + "'s part";
    add(kind::offer_submitted, at_ms).offer = o;
  }

  void distribute(std::int64_t at_ms, names agents, std::string recovery = {}) {
    channel_proposal p;
    p.proposal_id = "p-" + std::to_string(round);
    p.demand_id = "d-1";
    p.version = round;
    for (const auto& id : agents)
      p.assignments.push_back(assignment{id, "", "role", "", {}, true, ""});
    auto& x = add(kind::proposal_distributed, at_ms);
    x.proposal = p;
    x.reason = std::move(recovery);
  }

  void feedback(std::int64_t at_ms, const std::string& agent, feedback_type type) {
    add(kind::proposal_feedback, at_ms).feedback = proposal_feedback{
        "f-" + agent + "-" + std::to_string(round), "collab-1", agent, type, "", ""};
  }

  void evaluated(std::int64_t at_ms, channel_decision decision,
                 std::string recovery = {}) {
    auto& x = add(kind::feedback_evaluated, at_ms);
    x.tally = channel_tally{1, 1, 0, 0.5, decision};
    x.reason = std::move(recovery);
  }

  void next_round(std::int64_t at_ms) {
    ++round;
    add(kind::round_started, at_ms).reason = "between the thresholds";
  }
};

/// Round 1 of ann, bob and cat up to the proposal's feedback: bob withdraws.
run round_one() {
  run r;
  r.created(0);
  r.broadcast(0, {"ann", "bob", "cat"});
  r.offer(1000, "ann");
  r.offer(2000, "bob");
  r.offer(3000, "cat");
  r.distribute(3000, {"ann", "bob", "cat"});
  r.feedback(4000, "ann", feedback_type::accept);
  r.feedback(5000, "bob", feedback_type::withdraw);
  return r;
}

} // namespace

TEST_CASE("a fold needs the channel's created event first", "[unit][channel]") {
  CHECK_FALSE(fold({}));
  run r;
  r.broadcast(0, {"ann"});
  CHECK_FALSE(fold(r.events));
  run bare;
  bare.add(kind::created, 0);
  CHECK_FALSE(fold(bare.events)); // no setup
}

TEST_CASE("a fold of a freshly created channel keeps its setup", "[unit][channel]") {
  run r;
  r.created(7000);
  auto x = fold(r.events);
  REQUIRE(x);
  CHECK(x->channel_id == "collab-1");
  CHECK(x->demand_id == "d-1");
  CHECK(x->status == channel_status::created);
  CHECK(x->setup == *r.events.front().setup);
  CHECK(x->setup.candidates.size() == 3);
  CHECK(x->stuck_since_ms == 7000);
}

TEST_CASE("a fold in collecting keeps the invitations, offers and their ids",
          "[unit][channel]") {
  run r;
  r.created(0);
  r.broadcast(10, {"ann", "bob", "cat"});
  r.offer(1000, "ann");
  r.offer(2000, "cat");
  auto x = fold(r.events);
  REQUIRE(x);
  CHECK(x->status == channel_status::collecting);
  CHECK(x->round == 1);
  CHECK(x->invited == std::set<std::string>{"ann", "bob", "cat"});
  CHECK(x->offers.size() == 2);
  CHECK(x->offers.at("cat").contribution == "cat's part");
  CHECK(x->processed == std::set<std::string>{"o-ann-1", "o-cat-1"});
  CHECK(x->collection_started_ms == 10);
  CHECK(x->stuck_since_ms == 10);
  CHECK_FALSE(x->reasked);
  CHECK(x->recovery_attempts == 0);
  SECTION("a recovery's re-ask keeps them and counts the attempt") {
    r.broadcast(125010, {"bob"}, "stuck_in_collecting");
    auto y = fold(r.events);
    REQUIRE(y);
    CHECK(y->status == channel_status::collecting);
    CHECK(y->invited == x->invited);
    CHECK(y->offers.size() == 2);
    CHECK(y->reasked);
    CHECK(y->recovery_attempts == 1);
    CHECK(y->stuck_since_ms == 125010);
    CHECK(y->collection_started_ms == 10); // the deadline stays
  }
}

TEST_CASE("a fold in negotiating keeps the proposal and the feedback",
          "[unit][channel]") {
  auto r = round_one();
  auto x = fold(r.events);
  REQUIRE(x);
  CHECK(x->status == channel_status::negotiating);
  REQUIRE(x->proposal);
  CHECK(x->proposal->version == 1);
  CHECK(x->participants == std::set<std::string>{"ann", "bob", "cat"});
  REQUIRE(x->feedback.size() == 2);
  CHECK(x->feedback[1].feedback_type == feedback_type::withdraw);
  CHECK(x->withdrawn.empty()); // not evaluated yet
  CHECK(x->processed.size() == 5);
  CHECK(x->processed.count("f-bob-1") == 1);
  CHECK(x->collection_started_ms == 3000);
}

TEST_CASE("a fold across rounds starts the new round's collection afresh",
          "[unit][channel]") {
  auto r = round_one();
  r.evaluated(120000, channel_decision::renegotiate, "stuck_in_negotiating");
  r.next_round(120000);
  r.broadcast(120000, {"ann", "cat"});
  r.offer(121000, "ann");
  auto x = fold(r.events);
  REQUIRE(x);
  CHECK(x->status == channel_status::collecting);
  CHECK(x->round == 2);
  CHECK(x->withdrawn == std::set<std::string>{"bob"});
  CHECK(x->invited == std::set<std::string>{"ann", "cat"});
  CHECK(x->offers.size() == 1);
  CHECK(x->offers.count("ann") == 1);
  CHECK(x->processed.size() == 6); // every round's ids
  CHECK(x->recovery_attempts == 1);
  CHECK(x->collection_started_ms == 120000);
  CHECK(x->proposal->version == 1); // until the next one is distributed
}

TEST_CASE("a fold of a finished channel is terminal", "[unit][channel]") {
  auto r = round_one();
  r.feedback(6000, "cat", feedback_type::accept);
  r.evaluated(6000, channel_decision::finalize);
  auto& last = r.add(kind::finalized, 6000);
  last.proposal = r.events[5].proposal;
  auto x = fold(r.events);
  REQUIRE(x);
  CHECK(x->status == channel_status::finalized);
  r.events.back().kind = kind::failed;
  r.events.back().reason = "no_participants";
  CHECK(fold(r.events)->status == channel_status::failed);
  r.events.back().kind = kind::force_finalized;
  CHECK(fold(r.events)->status == channel_status::force_finalized);
}

TEST_CASE("a fold counts every recovery of the channel's life", "[unit][channel]") {
  run r;
  r.created(0);
  r.broadcast(0, {"ann", "bob", "cat"});
  r.offer(1000, "ann");
  r.broadcast(125000, {"bob", "cat"}, "stuck_in_collecting");
  r.distribute(250000, {"ann"}, "missing_responses");
  r.evaluated(375000, channel_decision::renegotiate, "stuck_in_negotiating");
  r.next_round(375000);
  r.broadcast(375000, {"ann", "bob", "cat"});
  auto x = fold(r.events);
  REQUIRE(x);
  CHECK(x->recovery_attempts == 3);
  CHECK(x->round == 2);
  CHECK_FALSE(x->reasked);
  CHECK(x->stuck_since_ms == 375000);
  CHECK(is_recovery(r.events[3]));
  CHECK_FALSE(is_recovery(r.events[6])); // round_started's reason is prose
}

TEST_CASE("a fold ignores the coordinator's events", "[unit][channel]") {
  run r;
  r.created(0);
  r.add(kind::demand_understood, 5);
  r.add(kind::filter_completed, 6);
  auto x = fold(r.events);
  REQUIRE(x);
  CHECK(x->status == channel_status::created);
}

} // namespace unit_actors_channel_snapshot_test
