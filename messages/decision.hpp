#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"

#include "messages/agent_profile.hpp"
#include "messages/fields.hpp"
#include "messages/proposal.hpp"

namespace parley::messages {

/// How an agent answers an incoming proposal or counter.
struct decision {
  reply_action action = reply_action::silent;
  /// The counter-proposal (only for `counter`).
  messages::proposal proposal;
  std::string reason;
  /// Think time before the answer goes out (a delayed message, never a sleep).
  std::int64_t delay_ms = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, decision& x) {
  return f(caf::meta::type_name("decision"), field("action", x.action),
           optional_field("proposal", x.proposal), optional_field("reason", x.reason),
           optional_field("delay_ms", x.delay_ms));
}

} // namespace parley::messages
