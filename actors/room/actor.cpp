#include "actors/room/actor.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/forward.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/shared_behavior.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/llm/tools.hpp"
#include "actors/llm/trigger.hpp"
#include "actors/room/rules.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::room {

namespace {

/// What the rooms spawned together with the same settings share.
struct room_context {
  messages::negotiation_settings settings;
  messages::event_sink events;
  timer_actor timers;
  std::shared_ptr<negotiation::pool> negotiations;
  wall_clock clock;
  std::uint32_t history_limit;
};

struct room_state {
  /// What it shares with the other rooms built with it.
  std::shared_ptr<const room_context> shared;
  rules core;
  std::vector<messages::room_member> members;
  negotiation_actor active;
  /// The recent conversation, for the trigger's context (empty in rooms
  /// that hear none).
  std::vector<llm::transcript_line> transcript;
  /// A trigger went out and no negotiation has ended since.
  bool triggered = false;

  const messages::room_member* member(const std::string& id) const {
    auto i = std::find_if(members.begin(), members.end(),
                          [&](const auto& m) { return m.agent_id == id; });
    return i != members.end() ? &*i : nullptr;
  }
};

/// Transcript lines a room keeps for a trigger's context.
constexpr std::size_t transcript_limit = 50;

/// How long a negotiation may take to pass a barrier on.
constexpr auto barrier_timeout = std::chrono::seconds(5);

class room_impl : public shared_behavior_actor<room_impl, room_actor::base> {
public:
  room_impl(caf::actor_config& cfg, messages::room_spec spec,
            std::shared_ptr<const room_context> shared);

  const char* name() const override { return "parley.room"; }

  static room_actor::behavior_type make_shared_behavior();

  /// Sets the tools of its LLM participants.
  void start();

  /// Lets go of its history and every handle as the room stops.
  void on_exit() override { state = room_state{}; }

  room_state state;
};

messages::problem_event make_problem(room_impl* self, const negotiation::problem& p,
                                     const std::string& negotiation_id,
                                     const std::string& agent_id,
                                     const std::string& message_id) {
  auto& st = self->state;
  return messages::problem_event{
      p.severity,        p.code,         p.message, st.shared->clock.now_ms(),
      st.core.room_id(), negotiation_id, agent_id,  message_id};
}

void publish(room_impl* self, const negotiation::problem& p,
             const std::string& negotiation_id, const std::string& agent_id,
             const std::string& message_id) {
  auto& st = self->state;
  auto topic = p.severity == messages::severity::error ? messages::topic::error
                                                       : messages::topic::warning;
  if (st.shared->events.wants(topic))
    actors::publish(self, st.shared->events, topic,
                    make_problem(self, p, negotiation_id, agent_id, message_id));
}

/// Tells the initiator and the bus why a start was refused (one message).
void refuse(room_impl* self, const messages::start_negotiation& x,
            const messages::room_member* initiator, const negotiation::problem& p) {
  auto& st = self->state;
  auto msg = caf::make_message(make_problem(self, p, {}, x.initiator, x.message_id));
  if (initiator != nullptr)
    forward_message(self, initiator->agent, msg);
  if (st.shared->events.wants(messages::topic::error))
    actors::publish(self, st.shared->events, messages::topic::error, std::move(msg));
}

/// What a negotiation of this room between `initiator` and `responder`
/// works with.
messages::negotiation_peers peers_of(room_impl* self, const messages::room_member& initiator,
                                     const messages::room_member& responder) {
  return {initiator.agent,
          responder.agent,
          caf::actor_cast<room_actor>(self),
          self->state.shared->timers,
          self->state.shared->events,
          initiator.hears_expiry(),
          responder.hears_expiry(),
          initiator.valuation,
          responder.valuation};
}

/// Opens a negotiation (docs/protocols/bilateral.md, "Opening") in a negotiation actor
/// of the node, which carries the opening out.
void open_negotiation(room_impl* self, const messages::start_negotiation& x) {
  auto& st = self->state;
  const auto* initiator = st.member(x.initiator);
  const auto* responder = st.member(x.responder);
  negotiation::opening opening;
  auto now_us = st.shared->clock.now_us();
  if (auto refused = st.core.start(x, initiator != nullptr, responder != nullptr,
                                   st.shared->settings, now_us / 1000, opening)) {
    refuse(self, x, initiator, *refused);
    return;
  }
  st.active = st.shared->negotiations->acquire();
  self->send(st.active, messages::open_negotiation{std::move(opening), now_us,
                                                   peers_of(self, *initiator, *responder)});
}

/// Resumes a negotiation kept open by the store (crash recovery) in a
/// negotiation actor of the node, or publishes why it cannot.
void resume_negotiation(room_impl* self, messages::resume_negotiation& x) {
  auto& st = self->state;
  const auto* initiator = st.member(x.record.initiator);
  const auto* responder = st.member(x.record.responder);
  if (auto refused =
          st.core.resume(x.record, initiator != nullptr, responder != nullptr)) {
    publish(self, *refused, x.record.id, {}, {});
    return;
  }
  st.active = st.shared->negotiations->acquire();
  x.peers = peers_of(self, *initiator, *responder);
  self->send(st.active, std::move(x));
}

/// Relays an agent message to the negotiation it names, or drops it with a
/// warning (unknown or ended negotiation: docs/protocols/bilateral.md, "Rooms").
template <class AgentMessage> void relay(room_impl* self, AgentMessage& x) {
  auto& st = self->state;
  auto reference = x.negotiation_id;
  x.negotiation_id = st.core.resolve(reference);
  switch (st.core.route_of(x.negotiation_id)) {
  case route::active:
    self->send(st.active, std::move(x));
    return;
  case route::finished:
    publish(self,
            {messages::severity::warning, messages::error_code::negotiation_not_active,
             "Received message for non-active negotiation " + x.negotiation_id +
                 "; dropped"},
            x.negotiation_id, x.from_agent, x.message_id);
    return;
  case route::unknown:
    publish(self,
            {messages::severity::warning, messages::error_code::negotiation_not_found,
             "Message for unknown negotiation \"" + reference + "\" in room " +
                 st.core.room_id() + "; dropped"},
            x.negotiation_id, x.from_agent, x.message_id);
    return;
  }
}

/// Passes a transcript line to every participant and, when the trigger
/// detector fires and nothing is under way, asks the speaker's agent (or the
/// first participant by id) to start a negotiation with another participant.
void hear(room_impl* self, const messages::transcript_entry& x) {
  auto& st = self->state;
  for (const auto& m : st.members)
    self->send(m.agent, x);
  st.transcript.push_back(llm::transcript_line{x.source, x.speaker, x.text});
  if (st.transcript.size() > transcript_limit)
    st.transcript.erase(st.transcript.begin());
  if (st.active || st.triggered || st.members.size() < 2)
    return;
  auto found = llm::detect_trigger(x.text);
  if (!found)
    return;
  std::vector<std::string> ids;
  for (const auto& m : st.members)
    ids.push_back(m.agent_id);
  std::sort(ids.begin(), ids.end());
  auto initiator = st.member(x.speaker) != nullptr ? x.speaker : ids.front();
  auto responder = ids.front() == initiator ? ids[1] : ids.front();
  st.triggered = true;
  self->send(
      st.member(initiator)->agent,
      messages::negotiation_trigger{found->type, found->matched_text, found->confidence,
                                    llm::transcript_text(st.transcript), responder});
}

/// The room gives an LLM participant the tools its model
/// (docs/protocols/llm-agent.md, "Tools") is offered; their handlers are the agent's.
void set_tools(room_impl* self, const messages::room_member& m) {
  self->send(m.agent, messages::set_tools{llm::agent_tools()});
}

room_impl::room_impl(caf::actor_config& cfg, messages::room_spec spec,
                     std::shared_ptr<const room_context> shared)
    : shared_behavior_actor(cfg) {
  state.shared = std::move(shared);
  state.core = rules{std::move(spec.id), state.shared->history_limit, spec.seed};
  state.members = std::move(spec.members);
  // A room that stops (its node shutting down) takes its negotiation along,
  // which says so on the bus.
  set_exit_handler([this](caf::exit_msg& x) {
    if (state.active)
      send(state.active, messages::shutdown_atom::value, state.core.active_id(),
           system().render(x.reason));
    quit(x.reason);
  });
}

void room_impl::start() {
  for (const auto& m : state.members)
    if (m.llm)
      set_tools(this, m);
}

room_actor::behavior_type room_impl::make_shared_behavior() {
  return {
      [](const messages::start_negotiation& x) { open_negotiation(&running(), x); },
      [](messages::resume_negotiation& x) { resume_negotiation(&running(), x); },
      [](messages::agent_proposal& x) { relay(&running(), x); },
      [](messages::agent_counter& x) { relay(&running(), x); },
      [](messages::agent_accept& x) { relay(&running(), x); },
      [](messages::agent_reject& x) { relay(&running(), x); },
      // Read-only: the event is shared with the bus and the parties.
      [](const messages::negotiation_event& x) {
        auto& st = running().state;
        if (!x.record)
          return;
        if (x.negotiation_id == st.core.active_id())
          st.active = negotiation_actor{};
        st.core.on_closed(*x.record);
        st.triggered = false;
      },
      [](const messages::transcript_entry& x) { hear(&running(), x); },
      [](messages::barrier& x) {
        auto* self = &running();
        auto& st = self->state;
        if (!st.active) {
          self->send(st.shared->events.bus(), std::move(x));
          return;
        }
        // Through the negotiation: its answer comes behind whatever it
        // published, and the barrier goes to the bus behind that.
        auto pass_on = [self, x] {
          self->send(self->state.shared->events.bus(), x);
        };
        self->request(st.active, barrier_timeout, x)
            .then(pass_on, [pass_on](const caf::error&) { pass_on(); });
      },
      [](messages::join_room& x) {
        auto* self = &running();
        auto& st = self->state;
        auto& m = x.member;
        auto i = std::find_if(st.members.begin(), st.members.end(),
                              [&](const auto& y) { return y.agent_id == m.agent_id; });
        if (i != st.members.end())
          *i = m;
        else
          st.members.push_back(m);
        if (m.llm)
          set_tools(self, m);
      },
      [](messages::history_atom) { return running().state.core.history(); },
  };
}

} // namespace

room_actor spawn_room(caf::actor_system& sys, messages::room_spec spec,
                      timer_actor timers,
                      std::shared_ptr<negotiation::pool> negotiations) {
  std::vector<messages::room_spec> specs;
  specs.push_back(std::move(spec));
  return spawn_rooms(sys, std::move(specs), std::move(timers), std::move(negotiations))
      .front();
}

std::vector<room_actor> spawn_rooms(caf::actor_system& sys,
                                    std::vector<messages::room_spec> specs,
                                    timer_actor timers,
                                    std::shared_ptr<negotiation::pool> negotiations) {
  std::vector<room_actor> result;
  result.reserve(specs.size());
  std::shared_ptr<const room_context> shared;
  for (auto& spec : specs) {
    auto limit = static_cast<std::uint32_t>(std::max(0, spec.history_limit));
    if (!shared || !(shared->settings == spec.settings) ||
        shared->history_limit != limit || !same_sink(shared->events, spec.events))
      shared = std::make_shared<const room_context>(room_context{
          spec.settings, spec.events, timers, negotiations, wall_clock{sys}, limit});
    result.push_back(sys.spawn<room_impl, caf::lazy_init>(std::move(spec), shared));
  }
  return result;
}

} // namespace parley::actors::room
