#include "actors/common/consensus_shell.hpp"

#include <utility>

#include "caf/event_based_actor.hpp"

#include "messages/type_ids.hpp"

namespace parley::actors::consensus {

void publish(caf::event_based_actor* self, const peers& with, const caf::message& msg) {
  if (with.bus)
    self->send(with.bus, msg);
}

void publish_error(caf::event_based_actor* self, const peers& with,
                   messages::error_code code, std::string text, std::int64_t at_ms,
                   const std::string& id, const std::string& agent) {
  publish(
      self, with,
      caf::make_message(messages::problem_event{
          messages::severity::error, code, std::move(text), at_ms, {}, id, agent, {}}));
}

void arm_window(caf::event_based_actor* self, std::chrono::milliseconds window) {
  self->delayed_send(self, window, messages::consensus_timer{window_generation});
}

void report(caf::event_based_actor* self, const peers& with,
            const caf::message& result) {
  publish(self, with, result);
  if (with.reporter)
    self->send(with.reporter, result);
}

} // namespace parley::actors::consensus
