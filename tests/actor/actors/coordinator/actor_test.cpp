#include "actors/coordinator/actor.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "caf/event_based_actor.hpp"
#include "caf/exit_reason.hpp"
#include "caf/expected.hpp"
#include "caf/sec.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/coordinator/rules.hpp"
#include "support/actor_fixture.hpp"
#include "messages/api.hpp"
#include "messages/channel.hpp"
#include "messages/channel_event.hpp"
#include "messages/channel_messages.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/topic.hpp"

namespace actor_actors_coordinator_actor_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::actors::channel_member_actor;
using parley::actors::coordinator_actor;
using parley::test::actor_fixture;

namespace {

/// How a test member answers a demand; it accepts every proposal.
enum class stance {
  participate,
  decline,
  /// Declines its first demand, takes part in every later one.
  decline_first,
  /// Never answers.
  silent,
};

/// What a test member received.
struct member_log {
  std::vector<demand_offer> offers;
  std::vector<proposal_review> reviews;
};

channel_member_actor spawn_member(actor_fixture& f, const std::string& id, stance s,
                                  member_log& log) {
  // The id goes in as an argument: CAF 0.17 dereferences a null pointer when
  // spawning a function-based actor without arguments.
  return f.sys.spawn(
      [s, &log](channel_member_actor::pointer self,
                const std::string& id) -> channel_member_actor::behavior_type {
        return {
            [=, &log](const demand_offer& x) {
              log.offers.push_back(x);
              if (s == stance::silent)
                return;
              auto declines = s == stance::decline ||
                              (s == stance::decline_first && log.offers.size() == 1);
              offer_response answer;
              answer.message_id =
                  id + ":" + x.channel_id + ":" + std::to_string(x.round);
              answer.channel_id = x.channel_id;
              answer.agent_id = id;
              answer.display_name = "Agent " + id;
              answer.decision =
                  declines ? offer_decision::decline : offer_decision::participate;
              answer.contribution = declines ? "" : id + "'s part";
              answer.decline_reason = declines ? "busy" : "";
              self->send(x.channel, answer);
            },
            [=, &log](const proposal_review& x) {
              log.reviews.push_back(x);
              self->send(x.channel,
                         proposal_feedback{id + ":" + x.channel_id + ":review",
                                           x.channel_id, id, feedback_type::accept, "",
                                           ""});
            },
        };
      },
      id);
}

/// A coordinator whose members are test members; `events` are the bus
/// recorder's channel events (the coordinator's and its channels').
struct coordinator_world {
  actor_fixture f;
  std::vector<channel_event>& events = f.seen.channel_events;
  std::map<std::string, member_log> logs;
  coordinator_actor coordinator;

  explicit coordinator_world(channel_settings settings = {}, std::uint64_t seed = 7) {
    coordinator = parley::actors::coordinator::spawn_coordinator(f.sys, settings, seed,
                                                                 {f.events, f.timers});
    f.keep(coordinator);
  }

  channel_member_actor add(const std::string& id, std::vector<std::string> capabilities,
                           stance s = stance::participate, bool active = true) {
    auto member = spawn_member(f, id, s, logs[id]);
    f.keep(member);
    f.send(coordinator,
           register_member{
               channel_profile{id, "Agent " + id, std::move(capabilities), "", active},
               member});
    f.run();
    return member;
  }

  /// Ends a member's actor, as deleting its agent does.
  void end(const channel_member_actor& member) {
    caf::anon_send_exit(member, caf::exit_reason::user_shutdown);
    f.run();
  }

  /// Asks the coordinator, as an actor would, and runs until all is done.
  template <class T, class... Ts> caf::expected<T> ask(Ts... xs) {
    caf::expected<T> out{caf::make_error(caf::sec::request_timeout)};
    auto answered = false;
    f.sys.spawn(
        [&, xs...](caf::event_based_actor* self, const coordinator_actor& to) {
          self->request(to, 5s, xs...)
              .then(
                  [&](T& x) {
                    out = std::move(x);
                    answered = true;
                  },
                  [&](caf::error& e) {
                    out = std::move(e);
                    answered = true;
                  });
        },
        coordinator);
    f.run();
    REQUIRE(answered);
    return out;
  }

  caf::expected<demand_receipt> submit(std::string raw, std::string user = {},
                                       std::string demand_id = {}) {
    return ask<demand_receipt>(
        submit_demand{std::move(raw), std::move(user), std::move(demand_id)});
  }

  demand_view view(const std::string& demand_id) {
    auto x = ask<demand_view>(caf::get_atom::value, demand_id);
    REQUIRE(x);
    return *x;
  }

  std::vector<channel_event> of(channel_event_kind kind) const {
    std::vector<channel_event> xs;
    for (const auto& x : events)
      if (x.kind == kind)
        xs.push_back(x);
    return xs;
  }
};

using kind = channel_event_kind;

using parley::test::code_of;

/// The message of a coded error.
std::string message_of(const caf::error& e) {
  return e.context().match_elements<std::string>() ? e.context().get_as<std::string>(0)
                                                   : std::string{};
}

std::vector<std::string> tags_of(const std::vector<gap>& gaps) {
  std::vector<std::string> xs;
  for (const auto& g : gaps)
    xs.insert(xs.end(), g.capability_tags.begin(), g.capability_tags.end());
  return xs;
}

} // namespace

TEST_CASE("a demand is understood, filtered and finalized in its channel",
          "[actor][coordinator]") {
  coordinator_world w;
  w.add("ann", {"venue"});
  w.add("bob", {"catering"});
  w.add("cat", {"photos"});
  auto receipt = w.submit("  need a venue and catering for a meetup ", "user_alice");
  REQUIRE(receipt);
  CHECK(receipt->demand_id.size() == 10);
  CHECK(receipt->demand_id.rfind("d-", 0) == 0);
  CHECK(receipt->channel_id == "collab-" + receipt->demand_id.substr(2));
  CHECK(receipt->status == demand_status::processing);
  CHECK(receipt->understanding.surface_demand ==
        "need a venue and catering for a meetup");
  CHECK(receipt->understanding.capability_tags ==
        std::vector<std::string>{"catering", "venue"});
  std::vector<kind> kinds;
  for (const auto& x : w.events)
    kinds.push_back(x.kind);
  CHECK(kinds == std::vector<kind>{kind::demand_understood, kind::filter_completed,
                                   kind::created, kind::demand_broadcast,
                                   kind::offer_submitted, kind::offer_submitted,
                                   kind::proposal_distributed, kind::proposal_feedback,
                                   kind::proposal_feedback, kind::feedback_evaluated,
                                   kind::finalized});
  const auto& understood = w.events[0];
  CHECK(understood.demand_id == receipt->demand_id);
  CHECK(understood.channel_id.empty());
  CHECK(*understood.understanding == receipt->understanding);
  const auto& filtered = w.events[1];
  REQUIRE(filtered.selection);
  CHECK(filtered.selection->source == selection_source::matched);
  REQUIRE(filtered.selection->candidates.size() == 2);
  CHECK(filtered.selection->candidates[0].agent_id == "ann");
  const auto& created = w.events[2];
  CHECK(created.channel_id == receipt->channel_id);
  CHECK(created.agents == std::vector<std::string>{"ann", "bob"});
  CHECK(created.setup->parent_channel_id.empty());
  CHECK(created.setup->depth == 0);
  CHECK(w.logs["cat"].offers.empty());
  REQUIRE(w.logs["ann"].offers.size() == 1);
  CHECK(w.logs["ann"].offers[0].capability_tags ==
        std::vector<std::string>{"catering", "venue"});
  auto view = w.view(receipt->demand_id);
  CHECK(view.status == demand_status::finalized);
  CHECK(view.user_id == "user_alice");
  REQUIRE(view.channels.size() == 1);
  CHECK(view.channels[0].channel_id == receipt->channel_id);
  CHECK(view.channels[0].status == demand_status::finalized);
  REQUIRE(view.proposal);
  CHECK(view.proposal->assignments.size() == 2);
  CHECK(view.proposal->gaps.empty());
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("demand ids are the same for the same seed and never reused",
          "[actor][coordinator]") {
  auto first_two = [](std::uint64_t seed) {
    coordinator_world w{{}, seed};
    w.add("ann", {"venue"});
    auto a = w.submit("a venue");
    auto b = w.submit("a venue");
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->demand_id != b->demand_id);
    return std::vector<std::string>{a->demand_id, b->demand_id};
  };
  CHECK(first_two(7) == first_two(7));
  CHECK(first_two(7) != first_two(8));
  coordinator_world w;
  w.add("ann", {"venue"});
  auto given = w.submit("a venue", "", "d-mine");
  REQUIRE(given);
  CHECK(given->channel_id == "collab-mine");
  auto again = w.submit("a venue", "", "d-mine");
  REQUIRE_FALSE(again);
  CHECK(code_of(again.error()) == error_code::already_exists);
}

TEST_CASE("a demand that cannot be taken up is refused and changes nothing",
          "[actor][coordinator]") {
  coordinator_world w;
  SECTION("E005: nobody is registered") {
    auto x = w.submit("a venue");
    REQUIRE_FALSE(x);
    CHECK(code_of(x.error()) == error_code::no_candidates);
    CHECK(message_of(x.error()).find("no agents are registered") != std::string::npos);
  }
  SECTION("E005: nobody is active (a registration replaces the one before)") {
    w.add("ann", {"venue"});
    w.add("ann", {"venue"}, stance::participate, false);
    w.add("bob", {"catering"}, stance::participate, false);
    auto x = w.submit("a venue");
    REQUIRE_FALSE(x);
    CHECK(code_of(x.error()) == error_code::no_candidates);
    CHECK(message_of(x.error()).find("none of the 2 registered agents is active") !=
          std::string::npos);
  }
  SECTION("E001: empty or oversized input") {
    w.add("ann", {"venue"});
    for (const auto& raw :
         {std::string{}, std::string{" \t\xE3\x80\x80"},
          std::string(parley::actors::coordinator::max_demand_bytes + 1, 'a')}) {
      auto x = w.submit(raw);
      REQUIRE_FALSE(x);
      CHECK(code_of(x.error()) == error_code::invalid_request);
    }
  }
  SECTION("E019: the world's channel settings are invalid") {
    channel_settings bad;
    bad.max_rounds = 0;
    coordinator_world broken{bad};
    broken.add("ann", {"venue"});
    auto x = broken.submit("a venue");
    REQUIRE_FALSE(x);
    CHECK(code_of(x.error()) == error_code::invalid_config);
    CHECK(broken.events.empty());
  }
  CHECK(w.events.empty());
  CHECK(w.logs["ann"].offers.empty());
  auto unknown = w.ask<demand_view>(caf::get_atom::value, std::string{"d-nope"});
  REQUIRE_FALSE(unknown);
  CHECK(code_of(unknown.error()) == error_code::demand_not_found);
}

TEST_CASE("a member without an id or a handle is refused", "[actor][coordinator]") {
  coordinator_world w;
  w.f.sys.spawn(
      [&](caf::event_based_actor* self, const coordinator_actor& to) {
        self->request(to, 5s, register_member{channel_profile{}, {}})
            .then([] { FAIL("registered a member without an id"); },
                  [&](caf::error& e) {
                    CHECK(code_of(e) == error_code::invalid_request);
                  });
      },
      w.coordinator);
  w.f.run();
  CHECK_FALSE(w.submit("a venue"));
}

TEST_CASE("a member whose actor ended is picked no more", "[actor][coordinator]") {
  coordinator_world w;
  auto ann = w.add("ann", {"venue"});
  w.add("bob", {"catering"});
  SECTION("the others still are") {
    w.end(ann);
    auto receipt = w.submit("a venue and catering");
    REQUIRE(receipt);
    auto filtered = w.of(kind::filter_completed);
    REQUIRE(filtered.size() == 1);
    REQUIRE(filtered[0].selection);
    REQUIRE(filtered[0].selection->candidates.size() == 1);
    CHECK(filtered[0].selection->candidates[0].agent_id == "bob");
    CHECK(w.of(kind::finalized).size() == 1);
  }
  SECTION("with nobody left, E005") {
    auto bob = w.add("bob", {"catering"});
    w.end(ann);
    w.end(bob);
    auto x = w.submit("a venue");
    REQUIRE_FALSE(x);
    CHECK(code_of(x.error()) == error_code::no_candidates);
    CHECK(message_of(x.error()).find("no agents are registered") != std::string::npos);
  }
  SECTION("the end of a replaced actor leaves its successor registered") {
    w.add("ann", {"venue"});
    w.end(ann);
    auto receipt = w.submit("a venue");
    REQUIRE(receipt);
    CHECK(w.logs["ann"].offers.size() == 1);
    CHECK(w.of(kind::finalized).size() == 1);
  }
}

TEST_CASE("when nothing matches, filter.completed marks the fallback",
          "[actor][coordinator]") {
  coordinator_world w;
  for (const auto& id : {"a", "b", "c", "d"})
    w.add(id, {"venue"});
  auto receipt = w.submit("xyzzy plugh");
  REQUIRE(receipt);
  CHECK(receipt->understanding.capability_tags.empty());
  auto filtered = w.of(kind::filter_completed);
  REQUIRE(filtered.size() == 1);
  const auto& selection = *filtered[0].selection;
  CHECK(selection.fallback());
  CHECK(selection.source == selection_source::fallback);
  CHECK(selection.candidates.size() == 3);
  for (const auto& c : selection.candidates)
    CHECK(c.relevance_score == 0);
  auto created = w.of(kind::created);
  REQUIRE(created.size() == 1);
  CHECK(created[0].agents.size() == 3);
  CHECK(w.view(receipt->demand_id).status == demand_status::finalized);
}

TEST_CASE("gaps of a finalized proposal open sub-channels, at most three",
          "[actor][coordinator]") {
  coordinator_world w;
  w.add("host", {"venue"});
  w.add("s-cater", {"catering"}, stance::decline_first);
  w.add("s-music", {"music"}, stance::decline);
  w.add("s-photo", {"photos"}, stance::decline_first);
  w.add("s-speak", {"speaker"}, stance::decline_first);
  auto receipt = w.submit("venue, speaker, catering, music and photos");
  REQUIRE(receipt);
  CHECK(receipt->understanding.capability_tags.size() == 5);
  auto view = w.view(receipt->demand_id);
  REQUIRE(view.channels.size() == 4);
  const auto& top = view.channels[0];
  CHECK(top.status == demand_status::finalized);
  REQUIRE(top.proposal);
  // Every gap stays in the final proposal, the fourth only noted.
  CHECK(tags_of(top.proposal->gaps) ==
        std::vector<std::string>{"catering", "music", "photos", "speaker"});
  CHECK(view.proposal == top.proposal);
  std::vector<std::string> opened;
  for (std::size_t i = 1; i < view.channels.size(); ++i) {
    const auto& sub = view.channels[i];
    CHECK(sub.channel_id == top.channel_id + "-sub" + std::to_string(i));
    CHECK(sub.parent_channel_id == top.channel_id);
    CHECK(sub.depth == 1);
    opened.insert(opened.end(), sub.capability_tags.begin(), sub.capability_tags.end());
  }
  CHECK(opened == std::vector<std::string>{"catering", "music", "photos"});
  CHECK(view.channels[1].status == demand_status::finalized);
  CHECK(view.channels[1].proposal->gaps.empty());
  CHECK(view.channels[1].proposal->assignments.at(0).agent_id == "s-cater");
  // Nobody takes the music up: that sub-channel fails, the demand does not.
  CHECK(view.channels[2].status == demand_status::failed);
  CHECK(view.channels[2].reason == "no_participants");
  CHECK(view.channels[3].status == demand_status::finalized);
  CHECK(view.status == demand_status::finalized);
  // The parent's participant is not asked again; the noted gap's agent is
  // asked only once.
  CHECK(w.logs["host"].offers.size() == 1);
  CHECK(w.logs["s-speak"].offers.size() == 1);
  CHECK(w.logs["s-cater"].offers.size() == 2);
  CHECK(w.logs["s-cater"].offers[1].capability_tags ==
        std::vector<std::string>{"catering"});
  auto created = w.of(kind::created);
  REQUIRE(created.size() == 4);
  for (const auto& x : created) {
    if (x.channel_id != top.channel_id + "-sub1")
      continue;
    CHECK(x.setup->parent_channel_id == top.channel_id);
    CHECK(x.setup->depth == 1);
    CHECK(x.setup->capability_tags == std::vector<std::string>{"catering"});
    CHECK(x.agents == std::vector<std::string>{"s-cater"});
  }
  auto filtered = w.of(kind::filter_completed);
  REQUIRE(filtered.size() == 4);
  CHECK(filtered[0].channel_id.empty());
  CHECK(filtered[1].channel_id == top.channel_id + "-sub1");
  CHECK(w.f.seen.problems.empty());
}

TEST_CASE("a sub-channel's own gaps are only noted: one level deep",
          "[actor][coordinator]") {
  SECTION("depth 1 opens no deeper channel") {
    coordinator_world w;
    w.add("host", {"venue"});
    w.add("ghost", {"speaker"}, stance::participate, false);
    auto receipt = w.submit("a venue and a speaker");
    REQUIRE(receipt);
    CHECK(receipt->understanding.capability_tags ==
          std::vector<std::string>{"speaker", "venue"});
    auto view = w.view(receipt->demand_id);
    REQUIRE(view.channels.size() == 2);
    CHECK(tags_of(view.proposal->gaps) == std::vector<std::string>{"speaker"});
    const auto& sub = view.channels[1];
    CHECK(sub.depth == 1);
    CHECK(sub.status == demand_status::finalized);
    // Only the host is active: the sub-channel gets it (a relaxed match),
    // and its proposal notes the same gap.
    CHECK(sub.proposal->assignments.at(0).agent_id == "host");
    CHECK(tags_of(sub.proposal->gaps) == std::vector<std::string>{"speaker"});
    CHECK(w.logs["ghost"].offers.empty());
    CHECK(w.of(kind::created).size() == 2);
  }
  SECTION("the parent's participants are left out while another is active") {
    coordinator_world w;
    w.add("host", {"venue"});
    w.add("ghost", {"speaker"}, stance::participate, false);
    w.add("idle", {"juggling"});
    auto receipt = w.submit("a venue and a speaker");
    REQUIRE(receipt);
    auto view = w.view(receipt->demand_id);
    REQUIRE(view.channels.size() == 2);
    // Nobody left offers a speaker or shares a term: the fallback draws
    // idle, never the host, who would otherwise be the relaxed match.
    auto filtered = w.of(kind::filter_completed);
    REQUIRE(filtered.size() == 2);
    CHECK(filtered[1].selection->fallback());
    CHECK(w.of(kind::created).back().agents == std::vector<std::string>{"idle"});
    CHECK(w.logs["host"].offers.size() == 1);
    CHECK(view.channels[1].proposal->assignments.at(0).agent_id == "idle");
  }
  SECTION("max_depth 0 opens none") {
    channel_settings flat;
    flat.max_depth = 0;
    coordinator_world w{flat};
    w.add("host", {"venue"});
    w.add("ghost", {"speaker"}, stance::participate, false);
    auto receipt = w.submit("a venue and a speaker");
    REQUIRE(receipt);
    auto view = w.view(receipt->demand_id);
    CHECK(view.channels.size() == 1);
    CHECK(tags_of(view.proposal->gaps) == std::vector<std::string>{"speaker"});
  }
}

TEST_CASE("a demand in Chinese goes through end to end", "[actor][coordinator]") {
  coordinator_world w;
  w.add("venue-bj", {"场地提供"});
  w.add("speaker-bj", {"演讲嘉宾"});
  w.add("cook", {"餐饮服务"});
  std::string raw = "我想在北京办一场AI主题聚会，需要场地和嘉宾";
  auto receipt = w.submit(raw, "user_alice");
  REQUIRE(receipt);
  CHECK(receipt->understanding.surface_demand == raw);
  CHECK(receipt->understanding.confidence == confidence_level::high);
  auto tags = receipt->understanding.capability_tags;
  CHECK(tags.size() == 2);
  CHECK(std::count(tags.begin(), tags.end(), "场地提供") == 1);
  CHECK(std::count(tags.begin(), tags.end(), "演讲嘉宾") == 1);
  CHECK(w.logs["cook"].offers.empty());
  REQUIRE(w.logs["venue-bj"].offers.size() == 1);
  CHECK(w.logs["venue-bj"].offers[0].surface_demand == raw);
  auto view = w.view(receipt->demand_id);
  CHECK(view.status == demand_status::finalized);
  CHECK(view.raw_input == raw);
  REQUIRE(view.proposal);
  CHECK(view.proposal->objective == raw);
  CHECK(view.proposal->gaps.empty());
  CHECK(view.proposal->assignments.size() == 2);
  CHECK(w.events.back().kind == kind::finalized);
}

TEST_CASE("a demand is processing while a sub-channel runs", "[actor][coordinator]") {
  channel_settings slow_checker; // the response timeouts decide, not recovery
  slow_checker.max_stuck_ms = 3600000;
  coordinator_world w{slow_checker};
  w.add("host", {"venue"});
  w.add("mute", {"speaker"}, stance::silent);
  auto receipt = w.submit("a venue and a speaker");
  REQUIRE(receipt);
  CHECK(w.view(receipt->demand_id).status == demand_status::processing);
  w.f.advance(300s); // the top channel's response timeout: only the host offered
  auto view = w.view(receipt->demand_id);
  REQUIRE(view.channels.size() == 2);
  CHECK(view.channels[0].status == demand_status::finalized);
  CHECK(tags_of(view.proposal->gaps) == std::vector<std::string>{"speaker"});
  CHECK(view.channels[1].status == demand_status::processing);
  CHECK(view.status == demand_status::processing);
  CHECK(w.logs["mute"].offers.size() == 2);
  w.f.advance(300s); // the sub-channel's: nobody answered
  view = w.view(receipt->demand_id);
  CHECK(view.channels[1].status == demand_status::failed);
  CHECK(view.channels[1].reason == "timeout");
  CHECK(view.status == demand_status::finalized);
}

TEST_CASE("a coordinator passes on only its own channels' events",
          "[actor][coordinator]") {
  coordinator_world w;
  channel_event stray;
  stray.kind = kind::finalized;
  stray.channel_id = "collab-elsewhere";
  w.f.send(w.coordinator, stray);
  w.f.run();
  CHECK(w.events.empty());
  w.add("host", {"venue"});
  auto receipt = w.submit("a venue");
  REQUIRE(receipt);
  auto before = w.events.size();
  stray.channel_id = receipt->channel_id; // ended: a replayed end changes nothing
  stray.proposal = channel_proposal{};
  stray.proposal->gaps = {{"no participant offers venue", {"venue"}}};
  w.f.send(w.coordinator, stray);
  w.f.run();
  CHECK(w.events.size() == before);
  auto view = w.view(receipt->demand_id);
  CHECK(view.channels.size() == 1);
  CHECK(view.proposal->gaps.empty());
}

TEST_CASE("after a restart the coordinator resumes the stored open channels",
          "[actor][coordinator][restart]") {
  std::vector<channel_event> stored;
  std::string demand_id;
  std::string channel_id;
  {
    coordinator_world before;
    before.add("ann", {"venue"}, stance::silent);
    before.add("bob", {"catering"}, stance::silent);
    auto receipt = before.submit("need a venue and catering", "user_alice");
    REQUIRE(receipt);
    demand_id = receipt->demand_id;
    channel_id = receipt->channel_id;
    // What the store keeps: the events that name a channel.
    for (const auto& x : before.events)
      if (!x.channel_id.empty())
        stored.push_back(x);
  }
  coordinator_world w;
  w.add("ann", {"venue"});
  w.add("bob", {"catering"});
  auto headless = stored.back(); // a channel whose channel.created is lost
  headless.channel_id = "collab-lost";
  stored.push_back(headless);
  auto report = w.ask<recovery_report>(resume_atom::value, stored);
  REQUIRE(report);
  CHECK(report->channels == 1);
  CHECK(report->skipped ==
        std::vector<std::string>{
            "channel collab-lost: its events do not begin with channel.created"});
  // The members, asked again, answer: the channel ends once, and its demand
  // with it.
  CHECK(w.logs["ann"].offers.size() == 1);
  CHECK(w.of(kind::created).empty());
  CHECK(w.of(kind::demand_broadcast).empty());
  REQUIRE(w.of(kind::finalized).size() == 1);
  auto view = w.view(demand_id);
  CHECK(view.status == demand_status::finalized);
  CHECK(view.understanding.surface_demand == "need a venue and catering");
  REQUIRE(view.channels.size() == 1);
  CHECK(view.channels[0].channel_id == channel_id);
  REQUIRE(view.proposal);
  CHECK(view.proposal->assignments.size() == 2);
  // Its demand id stays taken, and the channel is not resumed twice.
  auto taken = w.submit("a venue", "", demand_id);
  REQUIRE_FALSE(taken);
  CHECK(code_of(taken.error()) == error_code::already_exists);
  auto again = w.ask<recovery_report>(resume_atom::value,
                                      std::vector<channel_event>{stored.front()});
  REQUIRE(again);
  // One it runs is left as it is, without a word (a cluster's node recovers
  // again after each take-over, reading every open channel it owns).
  CHECK(again->channels == 0);
  CHECK(again->skipped.empty());
}

} // namespace actor_actors_coordinator_actor_test
