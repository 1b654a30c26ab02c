#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "caf/exit_reason.hpp"
#include "caf/send.hpp"

#include "actors/channel/actor.hpp"
#include "actors/channel/snapshot.hpp"
#include "support/actor_fixture.hpp"

namespace parley::test {

/// The default timeouts (docs/protocols/channels.md, "Settings") with the state checker
/// kept out of the way (it would recover a channel stuck for more than 120 s first).
inline messages::channel_settings timeouts_only() {
  messages::channel_settings x;
  x.max_stuck_ms = 3600000;
  return x;
}

/// The verdicts of a round where 3 of the 5 candidates a..e accept: 60 %, between the
/// thresholds (docs/protocols/channels.md, "Evaluation and thresholds": a new round, or
/// a forced finalize).
inline std::map<std::string, messages::feedback_type> three_of_five() {
  using messages::feedback_type;
  return {{"a", feedback_type::accept},
          {"b", feedback_type::accept},
          {"c", feedback_type::accept},
          {"d", feedback_type::negotiate},
          {"e", feedback_type::negotiate}};
}

/// A channel with stand-in candidates, whose every demand and proposal
/// lands in their inboxes; its events are the bus recorder's, its terminal
/// ones also in `ended` (what its reporter got).
struct channel_world {
  actor_fixture f;
  std::map<std::string, std::vector<caf::message>> inboxes;
  std::map<std::string, actors::channel_member_actor> agents;
  std::vector<messages::channel_event>& events = f.seen.channel_events;
  std::vector<messages::channel_event> ended;
  actors::channel_actor channel;

  channel_world(const std::vector<std::string>& ids,
                messages::channel_settings settings = {}) {
    actors::channel::channel_spec spec;
    spec.channel_id = "collab-1";
    spec.demand_id = "d-1";
    spec.surface_demand = "an AI meetup in Beijing";
    spec.capability_tags = {"venue"};
    spec.settings = settings;
    for (const auto& id : ids) {
      agents[id] = f.spawn_channel_probe(inboxes[id]);
      spec.candidates.push_back(
          {id, "Agent " + id, "can help", 80, agents[id], {"venue"}});
    }
    channel = actors::channel::spawn_channel(
        f.sys, spec, {f.events, f.spawn_channel_listener(ended), f.timers});
    f.keep(channel);
    f.run();
  }

  /// Kills the channel as `kill -9` would its node: nothing more is reported.
  void kill() {
    caf::anon_send_exit(channel, caf::exit_reason::kill);
    f.run();
  }

  /// Spawns the channel again from the events reported so far; what it
  /// reports from now on is added to them.
  void resume() {
    auto snapshot = actors::channel::fold(events);
    REQUIRE(snapshot);
    channel = actors::channel::resume_channel(
        f.sys, *snapshot, agents,
        {f.events, f.spawn_channel_listener(ended), f.timers});
    f.keep(channel);
    f.run();
  }

  void
  offer(const std::string& agent, const std::string& message_id,
        messages::offer_decision decision = messages::offer_decision::participate) {
    messages::offer_response x;
    x.message_id = message_id;
    x.channel_id = "collab-1";
    x.agent_id = agent;
    x.display_name = "Agent " + agent;
    x.decision = decision;
    x.contribution = agent + "'s part";
    x.decline_reason = decision == messages::offer_decision::decline ? "busy" : "";
    f.send(channel, x);
  }

  void feedback(const std::string& agent, const std::string& message_id,
                messages::feedback_type type) {
    f.send(channel, messages::proposal_feedback{
                        message_id, "collab-1", agent, type,
                        type == messages::feedback_type::negotiate ? "later" : "", ""});
  }

  /// One round: everyone offers, then gives the feedback in `verdicts`,
  /// each `pause` after it was asked for.
  void play_round(int round,
                  const std::map<std::string, messages::feedback_type>& verdicts,
                  std::chrono::milliseconds pause = std::chrono::milliseconds{0}) {
    f.advance(pause);
    for (const auto& entry : verdicts)
      offer(entry.first, "o-" + entry.first + "-" + std::to_string(round));
    f.run();
    f.advance(pause);
    for (const auto& [agent, type] : verdicts)
      feedback(agent, "f-" + agent + "-" + std::to_string(round), type);
    f.run();
  }

  std::vector<messages::channel_event_kind> kinds() const {
    std::vector<messages::channel_event_kind> xs;
    for (const auto& x : events)
      xs.push_back(x.kind);
    return xs;
  }

  std::size_t count(messages::channel_event_kind kind) const {
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

} // namespace parley::test
