#include "actors/channel/member.hpp"

#include <optional>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/channel/member_brain.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/channel_messages.hpp"
#include "messages/error_code.hpp"
#include "messages/events.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::channel {

namespace {

struct member_state {
  static inline const char* name = "parley.channel.member";
  std::optional<member_brain> brain;
};

using member_pointer = channel_member_actor::stateful_pointer<member_state>;

channel_member_actor::behavior_type member_behavior(member_pointer self,
                                                    messages::channel_member_spec spec,
                                                    messages::event_sink events) {
  if (auto invalid = validate(spec); !invalid.empty()) {
    if (events.wants(messages::topic::error))
      publish(self, events, messages::topic::error,
              messages::problem_event{messages::severity::error,
                                      messages::error_code::invalid_request,
                                      "channel member " + spec.profile.agent_id + ": " +
                                          invalid,
                                      wall_clock{self->system()}.now_ms(),
                                      {},
                                      {},
                                      spec.profile.agent_id,
                                      {}});
    self->quit();
  } else {
    self->state.brain.emplace(std::move(spec));
  }
  return {
      [self](const messages::demand_offer& x) {
        if (auto y = self->state.brain->answer(x))
          self->send(x.channel, std::move(*y));
      },
      [self](const messages::proposal_review& x) {
        if (auto y = self->state.brain->review(x))
          self->send(x.channel, std::move(*y));
      },
  };
}

} // namespace

channel_member_actor spawn_member(caf::actor_system& sys,
                                  messages::channel_member_spec spec,
                                  messages::event_sink events) {
  return sys.spawn(member_behavior, std::move(spec), std::move(events));
}

} // namespace parley::actors::channel
