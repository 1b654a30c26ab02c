#include "cluster/bridge/caller.hpp"

#include <chrono>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/forward.hpp"
#include "cluster/bridge/codec.hpp"
#include "cluster/bridge/outbox.hpp"
#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"
#include "messages/handles/agent.hpp"
#include "messages/type_ids.hpp"

namespace parley::cluster::bridge {

namespace {

/// How long a node may take to build one batch of rooms, or to answer a sync.
constexpr auto node_timeout = std::chrono::seconds(60);

struct caller_state {
  static inline const char* name = "parley.caller_bridge";
  node_bridge_actor node;
  actors::bus_actor bus;
  outbox out;
  /// The agents of the rooms placed through it, by slot.
  std::vector<actors::agent_actor> agents;
};

using caller_pointer = caller_bridge_actor::stateful_pointer<caller_state>;

void deliver(caller_pointer self, messages::routed& x) {
  auto& st = self->state;
  if (x.kind == messages::route_kind::agent) {
    if (x.slot < st.agents.size())
      actors::forward_message(self, st.agents[x.slot], std::move(x.content));
  } else if (x.kind == messages::route_kind::bus) {
    actors::forward_anonymous(self, st.bus, std::move(x.content));
  }
}

/// Keeps the agents' handles here, in slots from the returned one on (the
/// node makes its own stand-ins for them), and lets the node publish to its
/// stand-in for our bus.
std::uint64_t delocalize(caller_pointer self, std::vector<messages::room_spec>& specs) {
  auto& agents = self->state.agents;
  auto first = static_cast<std::uint64_t>(agents.size());
  for (auto& spec : specs) {
    for (auto& member : spec.members)
      agents.push_back(std::move(member.agent));
    spec.events = spec.events.with_bus({});
  }
  return first;
}

template <class AgentMessage> void on_answer(caller_pointer self, const AgentMessage&) {
  auto& st = self->state;
  st.out.add(self, st.node,
             messages::routed{messages::route_kind::negotiation, 0,
                              self->current_mailbox_element()->move_content_to_message()});
}

caller_bridge_actor::behavior_type caller_behavior(caller_pointer self,
                                                    actors::bus_actor bus) {
  self->state.bus = std::move(bus);
  return {
      [self](messages::routed& x) {
        self->state.out.add(self, self->state.node, std::move(x));
      },
      [self](messages::routed_batch& batch) {
        batch_reader reader{batch};
        messages::routed x;
        while (reader.next(x))
          deliver(self, x);
      },
      [self](const messages::agent_proposal& x) { on_answer(self, x); },
      [self](const messages::agent_counter& x) { on_answer(self, x); },
      [self](const messages::agent_accept& x) { on_answer(self, x); },
      [self](const messages::agent_reject& x) { on_answer(self, x); },
      [self](std::vector<messages::room_spec>& specs)
          -> caf::result<std::uint64_t, std::uint64_t> {
        auto& st = self->state;
        st.out.flush(self, st.node);
        auto first_agent = delocalize(self, specs);
        auto promise = self->make_response_promise<std::uint64_t, std::uint64_t>();
        self->request(st.node, node_timeout, first_agent, std::move(specs))
            .then(
                [promise](std::uint64_t first_room, std::uint64_t built) mutable {
                  promise.deliver(first_room, built);
                },
                [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
        return promise;
      },
      [self](messages::sync_atom) -> caf::result<bool> {
        auto& st = self->state;
        st.out.flush(self, st.node);
        auto promise = self->make_response_promise<bool>();
        self->request(st.node, node_timeout, messages::sync_atom::value)
            .then([promise](bool done) mutable { promise.deliver(done); },
                  [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
        return promise;
      },
      [self](messages::flush_atom) { self->state.out.flush(self, self->state.node); },
      [self](messages::bridge_atom, const caf::actor& node) {
        self->state.node = caf::actor_cast<node_bridge_actor>(node);
      },
  };
}

} // namespace

caller_bridge_actor spawn_caller_side(caf::actor_system& sys, actors::bus_actor bus) {
  return sys.spawn(caller_behavior, std::move(bus));
}

} // namespace parley::cluster::bridge
