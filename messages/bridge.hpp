#pragma once

// What the two sides of a bridge (cluster/bridge/) exchange: the messages of
// many actors in one batch, each addressed by a slot (a number the other side
// gave the actor) or, for an agent's answer, by the negotiation it names,
// rather than by an actor handle, so that no actor of one process becomes a
// CAF proxy in the other.

#include <cstdint>
#include <string>
#include <vector>

#include "caf/message.hpp"
#include "caf/meta/type_name.hpp"

#include "messages/fields.hpp"

namespace parley::messages {

/// Who a routed message is for.
enum class route_kind : std::uint8_t {
  /// A room the node built for the caller, by its slot there.
  room,
  /// The negotiation the content (an agent's answer) names, running on the
  /// node.
  negotiation,
  /// An agent of a room the caller placed, by its slot at the caller.
  agent,
  /// The caller's event bus.
  bus,
};

/// One message for one actor of the other process. A bridge numbers the
/// actors it routes to (slots) as it learns them, so routing is an index,
/// not a lookup by name.
struct routed {
  route_kind kind = route_kind::room;
  std::uint64_t slot = 0;
  caf::message content;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, routed& x) {
  return f(caf::meta::type_name("routed"), field("kind", x.kind), field("slot", x.slot),
           field("content", x.content));
}

/// Messages in the order their senders sent them, packed by
/// cluster/bridge/codec.hpp: CAF serializes a string per frame, not each
/// field of each message.
struct routed_batch {
  /// Each message's route, a tag for its type and, for a tagged type, its
  /// fields in the compact codec's form.
  std::string packed;
  /// The messages of types without a tag, whole, in order.
  std::vector<caf::message> others;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, routed_batch& x) {
  return f(caf::meta::type_name("routed_batch"), field("packed", x.packed),
           field("others", x.others));
}

} // namespace parley::messages
