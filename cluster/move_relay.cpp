#include "cluster/move_relay.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "messages/channel_messages.hpp"
#include "messages/cluster_event.hpp"
#include "messages/commands.hpp"
#include "messages/type_ids.hpp"

namespace parley::cluster {

namespace {

using relay_pointer = actors::move_relay_actor::pointer;

/// Hands channel answer `x` to who takes it on this node.
template <class Answer>
caf::result<bool> to_member(relay_pointer self, const member_finder& members,
                            Answer& x) {
  auto taker = members(x.agent_id);
  if (!taker)
    return messages::make_error(messages::error_code::agent_not_found,
                                "no external channel member " + x.agent_id +
                                    " on the node that runs channel " + x.channel_id);
  return self->delegate(taker, std::move(x));
}

actors::move_relay_actor::behavior_type relay(relay_pointer self,
                                              actors::gateway_actor gateway,
                                              member_finder members,
                                              actors::event_exchange_actor events) {
  // The gateway answers each move once it is committed (or refused); the
  // answer goes straight back to the forwarding node.
  return {
      [self, gateway](messages::place_atom, std::string& room_id,
                      messages::start_negotiation& x) {
        return self->delegate(gateway, messages::place_atom::value, std::move(room_id),
                              std::move(x));
      },
      [self, gateway](messages::agent_counter& x) {
        return self->delegate(gateway, messages::relayed_atom::value, std::move(x));
      },
      [self, gateway](messages::agent_accept& x) {
        return self->delegate(gateway, messages::relayed_atom::value, std::move(x));
      },
      [self, gateway](messages::agent_reject& x) {
        return self->delegate(gateway, messages::relayed_atom::value, std::move(x));
      },
      [self, members](messages::offer_response& x) {
        return to_member(self, members, x);
      },
      [self, members](messages::proposal_feedback& x) {
        return to_member(self, members, x);
      },
      [self, events](messages::cluster_event_batch& x) -> caf::result<std::uint64_t> {
        if (!events)
          return std::uint64_t{0};
        return self->delegate(events, std::move(x));
      },
  };
}

} // namespace

actors::move_relay_actor spawn_move_relay(caf::actor_system& sys,
                                          const actors::gateway_actor& gateway,
                                          member_finder members,
                                          actors::event_exchange_actor events) {
  return sys.spawn(relay, gateway, std::move(members), std::move(events));
}

} // namespace parley::cluster
