#pragma once

// What the HTTP API asks of and gets from the gateway actor
// (actors/gateway/) that the other wire types do not already say.

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

} // namespace parley::messages
