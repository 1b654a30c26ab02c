#include "actors/channel/actor.hpp"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/actor_fixture.hpp"

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::actors::channel_actor;
using parley::test::actor_fixture;

namespace {

/// A channel with stand-in candidates, whose every demand and proposal
/// lands in their inboxes, and a reporter that keeps its events.
struct channel_world {
  actor_fixture f;
  std::map<std::string, std::vector<caf::message>> inboxes;
  std::vector<channel_event> events;
  channel_actor channel;

  channel_world(const std::vector<std::string>& agents,
                channel_settings settings = {}) {
    parley::actors::channel::channel_spec spec;
    spec.channel_id = "collab-1";
    spec.demand_id = "d-1";
    spec.surface_demand = "an AI meetup in Beijing";
    spec.capability_tags = {"venue"};
    spec.settings = settings;
    for (const auto& id : agents)
      spec.candidates.push_back({id,
                                 "Agent " + id,
                                 "can help",
                                 80,
                                 f.spawn_channel_probe(inboxes[id]),
                                 {"venue"}});
    channel = parley::actors::channel::spawn_channel(
        f.sys, spec, {f.events, f.spawn_channel_listener(events), f.timers});
    f.keep(channel);
    f.run();
  }

  void offer(const std::string& agent, const std::string& message_id,
             offer_decision decision = offer_decision::participate) {
    offer_response x;
    x.message_id = message_id;
    x.channel_id = "collab-1";
    x.agent_id = agent;
    x.display_name = "Agent " + agent;
    x.decision = decision;
    x.contribution = agent + "'s part";
    x.decline_reason = decision == offer_decision::decline ? "busy" : "";
    f.send(channel, x);
  }

  void feedback(const std::string& agent, const std::string& message_id,
                feedback_type type) {
    f.send(channel,
           proposal_feedback{message_id, "collab-1", agent, type,
                             type == feedback_type::negotiate ? "later" : "", ""});
  }

  /// One round: everyone offers, then gives the feedback in `verdicts`.
  void play_round(int round, const std::map<std::string, feedback_type>& verdicts) {
    for (const auto& entry : verdicts)
      offer(entry.first, "o-" + entry.first + "-" + std::to_string(round));
    f.run();
    for (const auto& [agent, type] : verdicts)
      feedback(agent, "f-" + agent + "-" + std::to_string(round), type);
    f.run();
  }

  std::vector<channel_event_kind> kinds() const {
    std::vector<channel_event_kind> xs;
    for (const auto& x : events)
      xs.push_back(x.kind);
    return xs;
  }

  std::size_t count(channel_event_kind kind) const {
    std::size_t n = 0;
    for (const auto& x : events)
      n += x.kind == kind ? 1 : 0;
    return n;
  }

  template <class T> std::vector<T> received(const std::string& agent) const {
    std::vector<T> xs;
    for (const auto& msg : inboxes.at(agent))
      if (msg.match_elements<T>())
        xs.push_back(msg.get_as<T>(0));
    return xs;
  }
};

using kind = channel_event_kind;

} // namespace

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
  // 3 of 5 accept each round: 60 %, between the thresholds.
  std::map<std::string, feedback_type> verdicts{{"a", feedback_type::accept},
                                                {"b", feedback_type::accept},
                                                {"c", feedback_type::accept},
                                                {"d", feedback_type::negotiate},
                                                {"e", feedback_type::negotiate}};
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

TEST_CASE("the response timeout moves a channel on in simulated time",
          "[actor][channel]") {
  SECTION("nobody answers: it fails with timeout") {
    channel_world w{{"a", "b", "c"}};
    w.f.advance(299999ms);
    CHECK(w.events.back().kind == kind::demand_broadcast);
    w.f.advance(1ms);
    REQUIRE(w.events.back().kind == kind::failed);
    CHECK(w.events.back().reason == "timeout");
    CHECK(w.events.back().at_ms - w.events.front().at_ms == 300000);
    CHECK_FALSE(w.events.back().proposal);
  }
  SECTION("two of three answer: the proposal goes to them") {
    channel_world w{{"a", "b", "c"}};
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
