#include "runtime/room_host.hpp"

#include <vector>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/room/actor.hpp"
#include "messages/type_ids.hpp"

namespace parley::runtime {

namespace {

struct host_state {
  static inline const char* name = "parley.room_host";
  std::vector<caf::actor> rooms;
  caf::actor echo;
};

using host_actor = caf::stateful_actor<host_state>;

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

/// Class-based: CAF 0.17 mishandles argument-less function actors.
class host_impl : public host_actor {
public:
  using host_actor::host_actor;

  caf::behavior make_behavior() override {
    state.echo = spawn<echo_impl>();
    return {
        [this](std::vector<messages::room_spec>& specs) {
          std::vector<caf::actor> result;
          result.reserve(specs.size());
          for (auto& spec : specs) {
            result.push_back(actors::room::spawn_room(system(), std::move(spec)));
            state.rooms.push_back(result.back());
          }
          return result;
        },
        [this](messages::echo_atom) { return state.echo; },
        [this](messages::shutdown_atom) {
          for (const auto& room : state.rooms)
            caf::anon_send_exit(room, caf::exit_reason::user_shutdown);
          caf::anon_send_exit(state.echo, caf::exit_reason::user_shutdown);
          state.rooms.clear();
          quit();
        },
    };
  }
};

} // namespace

caf::actor spawn_room_host(caf::actor_system& sys) {
  return sys.spawn<host_impl>();
}

} // namespace parley::runtime
