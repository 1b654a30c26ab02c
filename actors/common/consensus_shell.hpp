#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "messages/error_code.hpp"

namespace parley::actors::consensus {

/// Who a ballot or an auction talks to. Any handle may be remote or unset.
struct peers {
  /// Receives its events and refusals.
  caf::actor bus;
  /// Also receives the result event (its creator).
  caf::actor reporter;
  /// Agents to send the invite (one shared message) when it opens.
  std::map<std::string, caf::actor> invite;
};

/// The window timer's generation: a ballot or an auction arms exactly one.
constexpr std::uint64_t window_generation = 1;

/// Sends `msg` to the bus, if there is one.
void publish(caf::event_based_actor* self, const peers& with, const caf::message& msg);

/// Publishes an error about the ballot or auction `id` (its id goes in the
/// problem's negotiation_id), and about `agent` when it refuses an agent's
/// vote or bid.
void publish_error(caf::event_based_actor* self, const peers& with,
                   messages::error_code code, std::string text, std::int64_t at_ms,
                   const std::string& id, const std::string& agent);

/// Arms the window: a `consensus_timer{window_generation}` after `window`.
void arm_window(caf::event_based_actor* self, std::chrono::milliseconds window);

/// Opens: sends the invite `make_invite()` builds (one message, shared) to
/// every invited agent, then forgets them, and arms the window.
template <class Self, class MakeInvite>
void open(Self* self, peers& with, MakeInvite make_invite,
          std::chrono::milliseconds window) {
  if (!with.invite.empty()) {
    auto invite = make_invite();
    for (const auto& entry : with.invite)
      self->send(entry.second, invite);
    with.invite.clear();
  }
  arm_window(self, window);
}

/// Publishes the result and sends it to the reporter.
void report(caf::event_based_actor* self, const peers& with,
            const caf::message& result);

} // namespace parley::actors::consensus
