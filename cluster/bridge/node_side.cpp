#include "cluster/bridge/node_side.hpp"

#include <chrono>
#include <string>
#include <unordered_map>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/forward.hpp"
#include "cluster/bridge/codec.hpp"
#include "cluster/bridge/forwarder.hpp"
#include "cluster/bridge/outbox.hpp"
#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"
#include "messages/events.hpp"
#include "messages/handles/negotiation.hpp"
#include "messages/type_ids.hpp"

namespace parley::cluster::bridge {

namespace {

/// How long the host may take to build one batch of rooms.
constexpr auto host_placement_timeout = std::chrono::seconds(60);

struct node_state {
  static inline const char* name = "parley.node_bridge";
  caller_bridge_actor caller;
  room_host_actor host;
  outbox out;
  /// The rooms built for the caller, by slot.
  std::vector<actors::room_actor> rooms;
  /// The forwarder to the caller's bus the rooms publish to.
  actors::bus_actor bus;
  /// Where an agent's answer goes: the actor that runs each negotiation,
  /// and the negotiation each of those actors runs now.
  std::unordered_map<std::string, actors::negotiation_actor> negotiations;
  std::unordered_map<caf::actor_addr, std::string> running;
};

using node_pointer = node_bridge_actor::stateful_pointer<node_state>;

/// Learns which actor runs a negotiation from its opening, sent to the
/// initiator before anything else; forgets a negotiation once its end
/// passes by (to a party or the bus).
void learn_route(node_pointer self, const caf::strong_actor_ptr& sender,
                 const caf::message& content) {
  auto& st = self->state;
  if (content.match_elements<messages::negotiation_opened>() && sender) {
    const auto& id = content.get_as<messages::negotiation_opened>(0).negotiation_id;
    auto& previous = st.running[sender->address()];
    if (!previous.empty())
      st.negotiations.erase(previous);
    previous = id;
    st.negotiations[id] = caf::actor_cast<actors::negotiation_actor>(sender);
  } else if (content.match_elements<messages::negotiation_event>()) {
    const auto& x = content.get_as<messages::negotiation_event>(0);
    if (is_terminal(x))
      st.negotiations.erase(x.negotiation_id);
  }
}

/// The negotiation an agent's answer is for.
const std::string* negotiation_of(const caf::message& x) {
  if (x.match_elements<messages::agent_counter>())
    return &x.get_as<messages::agent_counter>(0).negotiation_id;
  if (x.match_elements<messages::agent_accept>())
    return &x.get_as<messages::agent_accept>(0).negotiation_id;
  if (x.match_elements<messages::agent_reject>())
    return &x.get_as<messages::agent_reject>(0).negotiation_id;
  if (x.match_elements<messages::agent_proposal>())
    return &x.get_as<messages::agent_proposal>(0).negotiation_id;
  return nullptr;
}

void deliver(node_pointer self, messages::routed& x) {
  auto& st = self->state;
  if (x.kind == messages::route_kind::room) {
    if (x.slot < st.rooms.size())
      actors::forward_message(self, st.rooms[x.slot], std::move(x.content));
    return;
  }
  if (x.kind != messages::route_kind::negotiation)
    return; // the caller's: nothing here
  const auto* id = negotiation_of(x.content);
  if (id == nullptr)
    return;
  // An answer for a negotiation that ended is dropped, as the negotiation's
  // actor drops it once its negotiation ended.
  auto i = st.negotiations.find(*id);
  if (i != st.negotiations.end())
    actors::forward_message(self, i->second, std::move(x.content));
}

/// Gives the rooms of `specs` this node's stand-ins for the caller's agents
/// (its slots from `agent_slot` on) and bus.
void localize(node_pointer self, std::uint64_t agent_slot,
              std::vector<messages::room_spec>& specs) {
  auto& st = self->state;
  auto me = caf::actor_cast<caf::actor>(self);
  for (auto& spec : specs) {
    for (auto& member : spec.members) {
      member.agent = caf::actor_cast<actors::agent_actor>(make_forwarder(
          self->system(), me, messages::route_kind::agent, agent_slot++));
      member.remote = true;
    }
    if (!st.bus)
      st.bus = caf::actor_cast<actors::bus_actor>(
          make_forwarder(self->system(), me, messages::route_kind::bus, 0));
    spec.events = spec.events.with_bus(st.bus);
  }
}

node_bridge_actor::behavior_type node_behavior(node_pointer self,
                                                caller_bridge_actor caller,
                                                room_host_actor host) {
  self->state.caller = std::move(caller);
  self->state.host = std::move(host);
  self->monitor(self->state.caller);
  self->set_down_handler([self](const caf::down_msg&) {
    // The caller is gone: so are its rooms.
    for (const auto& room : self->state.rooms)
      caf::anon_send_exit(room, caf::exit_reason::user_shutdown);
    self->quit();
  });
  return {
      [self](messages::routed& x) {
        learn_route(self, self->current_sender(), x.content);
        self->state.out.add(self, self->state.caller, std::move(x));
      },
      [self](messages::routed_batch& batch) {
        batch_reader reader{batch};
        messages::routed x;
        while (reader.next(x))
          deliver(self, x);
      },
      [self](std::uint64_t agent_slot, std::vector<messages::room_spec>& specs)
          -> caf::result<std::uint64_t, std::uint64_t> {
        localize(self, agent_slot, specs);
        auto promise = self->make_response_promise<std::uint64_t, std::uint64_t>();
        self->request(self->state.host, host_placement_timeout, std::move(specs))
            .then(
                [self, promise](std::vector<actors::room_actor>& built) mutable {
                  auto& rooms = self->state.rooms;
                  auto first = static_cast<std::uint64_t>(rooms.size());
                  rooms.insert(rooms.end(), std::make_move_iterator(built.begin()),
                               std::make_move_iterator(built.end()));
                  promise.deliver(first, static_cast<std::uint64_t>(built.size()));
                },
                [promise](caf::error& err) mutable {
                  promise.deliver(std::move(err));
                });
        return promise;
      },
      [self](messages::sync_atom) {
        self->state.out.flush(self, self->state.caller);
        return true;
      },
      [self](messages::flush_atom) { self->state.out.flush(self, self->state.caller); },
  };
}

} // namespace

node_bridge_actor spawn_node_side(caf::actor_system& sys, caller_bridge_actor caller,
                                   room_host_actor host) {
  return sys.spawn(node_behavior, std::move(caller), std::move(host));
}

} // namespace parley::cluster::bridge
