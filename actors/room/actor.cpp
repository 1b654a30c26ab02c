#include "actors/room/actor.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_response_promise.hpp"

#include "actors/common/wall_clock.hpp"
#include "actors/llm/tools.hpp"
#include "actors/llm/trigger.hpp"
#include "actors/negotiation/actor.hpp"
#include "actors/room/rules.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::room {

namespace {

struct room_state {
  static inline const char* name = "parley.room";
  std::optional<rules> core;
  std::unordered_map<std::string, caf::actor> participants;
  messages::negotiation_settings settings;
  caf::actor bus;
  caf::actor active;
  std::optional<wall_clock> clock;
  /// The recent conversation, for the trigger's context.
  std::deque<llm::transcript_line> transcript;
  /// A trigger went out and no negotiation has ended since.
  bool triggered = false;
};

/// Transcript lines a room keeps for a trigger's context.
constexpr std::size_t transcript_limit = 50;

using room_actor = caf::stateful_actor<room_state>;

/// How long a negotiation may take to pass a barrier on.
constexpr auto barrier_timeout = std::chrono::seconds(5);

void publish(room_actor* self, const negotiation::problem& p,
             const std::string& negotiation_id, const std::string& agent_id,
             const std::string& message_id) {
  auto& st = self->state;
  self->send(st.bus, messages::problem_event{p.severity, p.code, p.message,
                                             st.clock->now_ms(), st.core->room_id(),
                                             negotiation_id, agent_id, message_id});
}

caf::result<messages::negotiation_record> start(room_actor* self,
                                                const messages::start_negotiation& x) {
  auto& st = self->state;
  auto find = [&](const std::string& id) {
    auto i = st.participants.find(id);
    return i != st.participants.end() ? i->second : caf::actor{};
  };
  auto initiator = find(x.initiator);
  auto responder = find(x.responder);
  negotiation::opening opening;
  auto now = st.clock->now_ms();
  if (auto refused =
          st.core->start(x, static_cast<bool>(initiator), static_cast<bool>(responder),
                         st.settings, now, opening)) {
    publish(self, *refused, {}, x.initiator, x.message_id);
    return messages::make_error(refused->code, refused->message);
  }
  negotiation::effects fx;
  negotiation::rules core{std::move(opening), now, fx};
  // Answer before the negotiation exists, so the initiator learns the id
  // before any reply from the responder can reach it.
  auto promise = self->make_response_promise<messages::negotiation_record>();
  promise.deliver(core.record());
  st.active = negotiation::spawn_negotiation(
      self, std::move(core), std::move(fx),
      negotiation::peers{std::move(initiator), std::move(responder),
                         caf::actor_cast<caf::actor>(self), st.bus});
  return promise;
}

/// Relays an agent message to the negotiation it names, or drops it with a
/// warning (seed 000: unknown or non-active negotiation).
template <class AgentMessage> void relay(room_actor* self, AgentMessage& x) {
  auto& st = self->state;
  auto reference = x.negotiation_id;
  x.negotiation_id = st.core->resolve(reference);
  switch (st.core->route_of(x.negotiation_id)) {
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
                 st.core->room_id() + "; dropped"},
            x.negotiation_id, x.from_agent, x.message_id);
    return;
  }
}

/// Passes a transcript line to every participant and, when the trigger
/// detector fires and nothing is under way, asks the speaker's agent (or the
/// first participant by id) to start a negotiation with another participant.
void hear(room_actor* self, const messages::transcript_entry& x) {
  auto& st = self->state;
  for (auto& entry : st.participants)
    self->send(entry.second, x);
  st.transcript.push_back(llm::transcript_line{x.source, x.speaker, x.text});
  if (st.transcript.size() > transcript_limit)
    st.transcript.pop_front();
  if (st.active || st.triggered || st.participants.size() < 2)
    return;
  auto found = llm::detect_trigger(x.text);
  if (!found)
    return;
  std::vector<std::string> ids;
  for (auto& entry : st.participants)
    ids.push_back(entry.first);
  std::sort(ids.begin(), ids.end());
  auto initiator = st.participants.count(x.speaker) > 0 ? x.speaker : ids.front();
  auto responder = ids.front() == initiator ? ids[1] : ids.front();
  st.triggered = true;
  self->send(st.participants[initiator],
             messages::negotiation_trigger{
                 found->type, found->matched_text, found->confidence,
                 llm::transcript_text({st.transcript.begin(), st.transcript.end()}),
                 responder});
}

/// Seed 001's setTools: the room gives an LLM participant the tools its model
/// is offered; their handlers are the agent's.
void set_tools(room_actor* self, const std::string& agent_id) {
  auto& st = self->state;
  auto i = st.participants.find(agent_id);
  if (i == st.participants.end()) {
    publish(self,
            {messages::severity::warning, messages::error_code::agent_not_found,
             "LLM participant \"" + agent_id + "\" is not in room " +
                 st.core->room_id() + "; no tools set"},
            {}, agent_id, {});
    return;
  }
  self->send(i->second, messages::set_tools{llm::agent_tools()});
}

caf::behavior room_behavior(room_actor* self, messages::room_spec spec) {
  auto& st = self->state;
  st.core.emplace(spec.id, static_cast<std::size_t>(spec.history_limit), spec.seed);
  st.participants.insert(spec.participants.begin(), spec.participants.end());
  st.settings = spec.settings;
  st.bus = std::move(spec.bus);
  st.clock.emplace(self->system());
  for (const auto& id : spec.llm_participants)
    set_tools(self, id);
  return {
      [self](const messages::start_negotiation& x) { return start(self, x); },
      [self](messages::agent_proposal& x) { relay(self, x); },
      [self](messages::agent_counter& x) { relay(self, x); },
      [self](messages::agent_accept& x) { relay(self, x); },
      [self](messages::agent_reject& x) { relay(self, x); },
      // Read-only: the event is shared with the bus and the parties, so taking
      // it by non-const reference would copy the whole record.
      [self](const messages::negotiation_event& x) {
        auto& st = self->state;
        if (x.record.id == st.core->active_id())
          st.active = caf::actor{};
        st.core->on_closed(x.record);
        st.triggered = false;
      },
      [self](const messages::transcript_entry& x) { hear(self, x); },
      [self](messages::barrier& x) {
        auto& st = self->state;
        if (!st.active) {
          self->send(st.bus, std::move(x));
          return;
        }
        // The negotiation may have ended a moment ago, its closing event still
        // on the way here: if it is gone, the barrier goes to the bus directly.
        self->request(st.active, barrier_timeout, x)
            .then([] {},
                  [self, x](const caf::error&) { self->send(self->state.bus, x); });
      },
      [self](messages::join_room& x) {
        self->state.participants[x.agent_id] = std::move(x.agent);
        if (x.llm)
          set_tools(self, x.agent_id);
      },
      [self](messages::history_atom) {
        const auto& history = self->state.core->history();
        return std::vector<messages::negotiation_record>(history.begin(),
                                                         history.end());
      },
  };
}

} // namespace

caf::actor spawn_room(caf::actor_system& sys, messages::room_spec spec) {
  return sys.spawn<caf::lazy_init>(room_behavior, std::move(spec));
}

} // namespace parley::actors::room
