#include "cluster/room_host.hpp"

#include <unordered_map>
#include <vector>

#include "caf/actor_registry.hpp"
#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/negotiation/pool.hpp"
#include "actors/room/actor.hpp"
#include "actors/timer/actor.hpp"
#include "cluster/bridge/node_side.hpp"
#include "messages/type_ids.hpp"

namespace parley::cluster {

namespace {

struct host_state {
  static inline const char* name = "parley.room_host";
  /// Every room it built that still runs.
  std::unordered_map<caf::actor_addr, actors::room_actor> rooms;
  actors::timer_actor timers;
  std::shared_ptr<actors::negotiation::pool> negotiations;
  caf::actor echo;
  /// The node's sides of the callers' bridges.
  std::unordered_map<caf::actor_addr, caf::actor> bridges;
};

using host_pointer = room_host_actor::stateful_pointer<host_state>;

/// Answers every message with itself.
class echo_impl : public caf::event_based_actor {
public:
  using caf::event_based_actor::event_based_actor;

  caf::behavior make_behavior() override {
    set_default_handler(caf::reflect);
    return {[](messages::shutdown_atom) {
    }};
  }
};

room_host_actor::behavior_type host_behavior(host_pointer self, caf::actor echo) {
  self->state.echo = std::move(echo);
  self->state.timers = actors::timer::spawn_timer_service(self->system());
  self->state.negotiations =
      std::make_shared<actors::negotiation::pool>(self->system());
  self->set_down_handler([self](const caf::down_msg& down) {
    auto& st = self->state;
    if (st.bridges.erase(down.source) > 0)
      return;
    st.rooms.erase(down.source);
    if (st.rooms.empty())
      st.negotiations->clear();
  });
  return {
      [self](std::vector<messages::room_spec>& specs) {
        auto result =
            actors::room::spawn_rooms(self->system(), std::move(specs),
                                      self->state.timers, self->state.negotiations);
        for (const auto& room : result) {
          self->monitor(room);
          self->state.rooms.emplace(room.address(), room);
        }
        return result;
      },
      [self](messages::echo_atom) { return self->state.echo; },
      [self](messages::bridge_atom, const caf::actor& caller) {
        auto side = bridge::spawn_node_side(
            self->system(), caf::actor_cast<bridge::caller_bridge_actor>(caller),
            caf::actor_cast<room_host_actor>(self));
        auto handle = caf::actor_cast<caf::actor>(side);
        self->monitor(handle);
        self->state.bridges.emplace(handle.address(), handle);
        return handle;
      },
      [self](messages::count_atom) {
        return caf::make_result(self->state.rooms.size(),
                                self->system().registry().running());
      },
      [self](messages::shutdown_atom) {
        auto& st = self->state;
        for (const auto& room : st.rooms)
          caf::anon_send_exit(room.second, caf::exit_reason::user_shutdown);
        caf::anon_send_exit(st.echo, caf::exit_reason::user_shutdown);
        for (const auto& side : st.bridges)
          caf::anon_send_exit(side.second, caf::exit_reason::user_shutdown);
        caf::anon_send_exit(st.timers, caf::exit_reason::user_shutdown);
        st.negotiations->clear();
        st.rooms.clear();
        self->quit();
      },
  };
}

} // namespace

room_host_actor spawn_room_host(caf::actor_system& sys) {
  return sys.spawn(host_behavior, sys.spawn<echo_impl>());
}

} // namespace parley::cluster
