#pragma once

// What the HTTP API asks of and gets from the gateway actor
// (actors/gateway/) that the other wire types do not already say.

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/fields.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::messages {

/// Creates a room of registered agents.
struct room_request {
  std::string id;
  /// Agent ids, at least two.
  std::vector<std::string> members;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, room_request& x) {
  return f(caf::meta::type_name("room_request"), field("id", x.id),
           field("members", x.members));
}

/// A room as the API shows it: its members, its active negotiation and the
/// ended ones it keeps, oldest first.
struct room_view {
  std::string id;
  std::vector<std::string> members;
  caf::optional<negotiation_record> active;
  std::vector<negotiation_record> history;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, room_view& x) {
  return f(caf::meta::type_name("room_view"), field("id", x.id),
           field("members", x.members), optional_field("active", x.active),
           field("history", x.history));
}

/// What the gateway restored from the store as `parley serve` started.
struct recovery_report {
  std::int64_t agents = 0;
  std::int64_t rooms = 0;
  /// Open negotiations handed back to their rooms (one whose deadline passed
  /// meanwhile expires there at once).
  std::int64_t negotiations = 0;
  /// Open channels (docs/protocols/channels.md) resumed by the coordinator, their
  /// collection timers re-armed with the time left.
  std::int64_t channels = 0;
  /// Why a stored room, open negotiation or open channel could not be
  /// restored (an agent of it is gone, its events cannot be folded), one
  /// line each; such a negotiation stays open in the store until the
  /// store's expiry ends it, such a channel until a later start resumes it.
  std::vector<std::string> skipped;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, recovery_report& x) {
  return f(caf::meta::type_name("recovery_report"), field("agents", x.agents),
           field("rooms", x.rooms), field("negotiations", x.negotiations),
           optional_field("channels", x.channels), field("skipped", x.skipped));
}

} // namespace parley::messages
