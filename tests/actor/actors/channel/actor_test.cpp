#include "actors/channel/actor.hpp"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/channel_world.hpp"
#include "messages/channel_messages.hpp"

namespace actor_actors_channel_actor_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::test::channel_world;
using parley::test::timeouts_only;
using kind = channel_event_kind;

TEST_CASE("a channel whose participants all accept finalizes in round 1",
          "[actor][channel]") {
  channel_world w{{"ann", "bob", "cat"}};
  CHECK(w.kinds() == std::vector<kind>{kind::created, kind::demand_broadcast});
  CHECK(w.events.front().agents == std::vector<std::string>{"ann", "bob", "cat"});
  for (const auto& id : {"ann", "bob", "cat"}) {
    auto offers = w.received<demand_offer>(id);
    REQUIRE(offers.size() == 1);
    CHECK(offers.front().round == 1);
    CHECK(offers.front().surface_demand == "an AI meetup in Beijing");
    CHECK(offers.front().channel == w.channel);
  }
  w.offer("ann", "o-ann");
  w.offer("bob", "o-bob");
  w.offer("cat", "o-cat", offer_decision::conditional);
  w.f.run();
  CHECK(w.count(kind::offer_submitted) == 3);
  REQUIRE(w.events.back().kind == kind::proposal_distributed);
  const auto& proposal = *w.events.back().proposal;
  CHECK(proposal.version == 1);
  CHECK(proposal.demand_id == "d-1");
  REQUIRE(proposal.assignments.size() == 3);
  CHECK(proposal.assignments[0].agent_id == "ann");
  CHECK(proposal.assignments[0].is_confirmed);
  CHECK_FALSE(proposal.assignments[2].is_confirmed); // conditional
  CHECK(proposal.gaps.empty());
  CHECK(proposal.confidence == confidence_level::high);
  auto review = w.received<proposal_review>("bob");
  REQUIRE(review.size() == 1);
  CHECK(review.front().your_assignment->agent_id == "bob");
  CHECK(review.front().max_rounds == 5);
  for (const auto& id : {"ann", "bob", "cat"})
    w.feedback(id, std::string{"f-"} + id, feedback_type::accept);
  w.f.run();
  CHECK(w.kinds() ==
        std::vector<kind>{kind::created, kind::demand_broadcast, kind::offer_submitted,
                          kind::offer_submitted, kind::offer_submitted,
                          kind::proposal_distributed, kind::proposal_feedback,
                          kind::proposal_feedback, kind::proposal_feedback,
                          kind::feedback_evaluated, kind::finalized});
  const auto& evaluated = w.events[w.events.size() - 2];
  CHECK(evaluated.tally->accepts == 3);
  CHECK(evaluated.tally->accept_rate == 1.0);
  CHECK(evaluated.tally->decision == channel_decision::finalize);
  CHECK(w.events.back().round == 1);
  CHECK(w.events.back().proposal->version == 1);
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("a channel that keeps renegotiating is force finalized at round 5",
          "[actor][channel]") {
  channel_world w{{"a", "b", "c", "d", "e"}};
  auto verdicts = parley::test::three_of_five();
  for (int round = 1; round <= 5; ++round)
    w.play_round(round, verdicts);
  CHECK(w.count(kind::round_started) == 4);
  CHECK(w.count(kind::proposal_distributed) == 5);
  CHECK(w.received<demand_offer>("e").size() == 5);
  CHECK(w.received<demand_offer>("e").back().round == 5);
  REQUIRE(w.events.back().kind == kind::force_finalized);
  const auto& last = w.events.back();
  CHECK(last.round == 5);
  REQUIRE(last.proposal);
  CHECK(last.proposal->version == 5);
  CHECK(last.proposal->is_forced);
  CHECK(last.proposal->confirmed_participants ==
        std::vector<std::string>{"a", "b", "c"});
  CHECK(last.proposal->optional_participants == std::vector<std::string>{"d", "e"});
  CHECK_FALSE(last.proposal->assignments[3].is_confirmed);
  const auto& evaluated = w.events[w.events.size() - 2];
  CHECK(evaluated.tally->decision == channel_decision::force_finalize);
  CHECK(w.f.seen.problems.empty());
  // It stopped: a late feedback reaches nobody.
  w.feedback("d", "f-d-late", feedback_type::accept);
  w.f.run();
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("a channel fails with low_acceptance below 50 %", "[actor][channel]") {
  channel_world w{{"a", "b", "c", "d"}};
  w.play_round(1, {{"a", feedback_type::accept},
                   {"b", feedback_type::negotiate},
                   {"c", feedback_type::negotiate},
                   {"d", feedback_type::negotiate}});
  REQUIRE(w.events.back().kind == kind::failed);
  const auto& failed = w.events.back();
  CHECK(failed.reason == "low_acceptance");
  REQUIRE(failed.tally);
  CHECK(failed.tally->accept_rate == 0.25);
  CHECK(failed.tally->decision == channel_decision::fail);
  CHECK(failed.proposal->version == 1);
  CHECK(failed.compromise_suggestion.find("b: later") != std::string::npos);
  CHECK(w.count(kind::round_started) == 0);
}

TEST_CASE("a channel whose members all withdraw fails with no_participants at once, "
          "evaluating nothing",
          "[actor][channel]") {
  channel_world w{{"a", "b", "c"}};
  w.play_round(1, {{"a", feedback_type::withdraw},
                   {"b", feedback_type::withdraw},
                   {"c", feedback_type::withdraw}});
  CHECK(w.count(kind::feedback_evaluated) == 0);
  CHECK(w.kinds() == std::vector<kind>{kind::created, kind::demand_broadcast,
                                       kind::offer_submitted, kind::offer_submitted,
                                       kind::offer_submitted,
                                       kind::proposal_distributed,
                                       kind::proposal_feedback, kind::proposal_feedback,
                                       kind::proposal_feedback, kind::failed});
  const auto& failed = w.events.back();
  CHECK(failed.reason == "no_participants");
  REQUIRE(failed.tally);
  CHECK(failed.tally->withdraws == 3);
  CHECK(failed.tally->decision == channel_decision::fail);
  CHECK(failed.compromise_suggestion.empty());
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("the response timeout moves a channel on in simulated time",
          "[actor][channel]") {
  SECTION("nobody answers: it fails with timeout") {
    channel_world w{{"a", "b", "c"}, timeouts_only()};
    w.f.advance(299999ms);
    CHECK(w.events.back().kind == kind::demand_broadcast);
    w.f.advance(1ms);
    REQUIRE(w.events.back().kind == kind::failed);
    CHECK(w.events.back().reason == "timeout");
    CHECK(w.events.back().at_ms - w.events.front().at_ms == 300000);
    CHECK_FALSE(w.events.back().proposal);
  }
  SECTION("two of three answer: the proposal goes to them") {
    channel_world w{{"a", "b", "c"}, timeouts_only()};
    w.offer("a", "o-a");
    w.offer("c", "o-c");
    w.f.run();
    CHECK(w.events.back().kind == kind::offer_submitted);
    w.f.advance(300000ms);
    REQUIRE(w.events.back().kind == kind::proposal_distributed);
    CHECK(w.events.back().proposal->assignments.size() == 2);
    CHECK(w.events.back().proposal->confidence == confidence_level::medium);
    CHECK(w.received<proposal_review>("b").empty());
    // Only a answers the proposal: at the feedback timeout 1 of 2 accepted.
    w.feedback("a", "f-a", feedback_type::accept);
    w.f.advance(119999ms);
    CHECK(w.events.back().kind == kind::proposal_feedback);
    w.f.advance(1ms);
    CHECK(w.count(kind::feedback_evaluated) == 1);
    CHECK(w.events.back().kind == kind::demand_broadcast);
    CHECK(w.events.back().round == 2);
    CHECK(w.received<demand_offer>("b").size() == 2);
  }
}

TEST_CASE("a replayed offer is refused with E011 and changes nothing",
          "[actor][channel]") {
  channel_world w{{"a", "b"}};
  w.offer("a", "o-a");
  w.f.run();
  auto before = w.events.size();
  w.offer("a", "o-a", offer_decision::decline); // the same message id
  w.f.run();
  CHECK(w.f.seen.codes() == std::vector<error_code>{error_code::duplicate_message});
  CHECK(w.f.seen.problems.front().negotiation_id == "collab-1");
  CHECK(w.f.seen.problems.front().message_id == "o-a");
  CHECK(w.events.size() == before);
  w.offer("b", "o-b");
  w.f.run();
  REQUIRE(w.events.back().kind == kind::proposal_distributed);
  CHECK(w.events.back().proposal->assignments.size() == 2); // a still takes part
}

TEST_CASE("a channel refuses input that is not its own", "[actor][channel]") {
  channel_world w{{"a", "b"}};
  offer_response stranger;
  stranger.message_id = "o-x";
  stranger.channel_id = "collab-1";
  stranger.agent_id = "mallory";
  stranger.contribution = "anything";
  w.f.send(w.channel, stranger);
  auto elsewhere = stranger;
  elsewhere.agent_id = "a";
  elsewhere.channel_id = "collab-2";
  w.f.send(w.channel, elsewhere);
  w.feedback("a", "f-a", feedback_type::accept); // nothing proposed yet
  w.f.run();
  CHECK(w.f.seen.codes() == std::vector<error_code>{error_code::not_a_party,
                                                    error_code::channel_not_found,
                                                    error_code::negotiation_timeout});
  CHECK(w.count(kind::offer_submitted) == 0);
}

} // namespace actor_actors_channel_actor_test
