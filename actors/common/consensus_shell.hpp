#pragma once

// What a ballot's and an auction's actor shells do the same way.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "caf/message.hpp"
#include "caf/timespan.hpp"

#include "actors/agent/interface.hpp"
#include "actors/bus/interface.hpp"
#include "actors/common/forward.hpp"
#include "messages/consensus.hpp"
#include "messages/error_code.hpp"
#include "messages/event_sink.hpp"
#include "messages/events.hpp"

namespace parley::actors::consensus {

/// Who a ballot or an auction talks to. Any handle may be remote or unset.
struct peers {
  /// Receives its events and refusals.
  messages::event_sink events;
  /// Also receives the result event (its creator).
  subscriber_actor reporter;
  /// Agents to send the invite (one shared message) when it opens.
  std::map<std::string, agent_actor> invite;
};

/// The window timer's generation: a ballot or an auction arms exactly one.
constexpr std::uint64_t window_generation = 1;

/// Sends `msg`, an event of topic `t`, to the bus if someone listens.
template <class Self>
void publish(Self* self, const peers& with, messages::topic t, caf::message msg) {
  if (with.events.wants(t))
    forward_anonymous(self, with.events.bus(), std::move(msg));
}

/// Publishes an error about the ballot or auction `id` (its id goes in the
/// problem's negotiation_id), and about `agent` when it refuses an agent's
/// vote or bid.
template <class Self>
void publish_error(Self* self, const peers& with, messages::error_code code,
                   std::string text, std::int64_t at_ms, const std::string& id,
                   const std::string& agent) {
  if (!with.events.wants(messages::topic::error))
    return;
  send_anonymous(self, with.events.bus(),
                 messages::problem_event{messages::severity::error, code,
                                         std::move(text), at_ms, {}, id, agent, {}});
}

/// Opens: sends the invite `make_invite()` builds (one message, shared) to
/// every invited agent, then forgets them, and arms the window (a
/// `consensus_timer{window_generation}` to itself).
template <class Self, class MakeInvite>
void open(Self* self, peers& with, MakeInvite make_invite, caf::timespan window) {
  if (!with.invite.empty()) {
    auto invite = make_invite();
    for (const auto& entry : with.invite)
      forward_message(self, entry.second, invite);
    with.invite.clear();
  }
  self->delayed_send(self, window, messages::consensus_timer{window_generation});
}

/// Publishes the result (topic `t`) and sends it to the reporter.
template <class Self>
void report(Self* self, const peers& with, messages::topic t, caf::message result) {
  publish(self, with, t, result);
  if (with.reporter)
    forward_message(self, with.reporter, std::move(result));
}

} // namespace parley::actors::consensus
