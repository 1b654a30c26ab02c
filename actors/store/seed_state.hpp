#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "messages/negotiation_record.hpp"

namespace parley::actors::store {

/// The stored states (docs/protocols/record-and-schema.md, "States stored"): initiated
/// -> proposed -> counter_proposed -> accepted | rejected | expired.
enum class seed_state : std::uint8_t {
  initiated,
  proposed,
  counter_proposed,
  accepted,
  rejected,
  expired,
};

/// THE mapping from the runtime's status to the stored state, the
/// one place it is written:
/// - round 1 only (the initiator's proposal): `initiated`;
/// - the responder's first counter (round 2 is the newest): `proposed`;
/// - any later round while still open: `counter_proposed`;
/// - accepted, rejected, expired: the same names.
/// `rounds` is how many rounds the record has.
seed_state seed_state_of(messages::negotiation_status status, std::size_t rounds);

/// The same for a whole record.
seed_state seed_state_of(const messages::negotiation_record& record);

/// The runtime's status a stored state stands for (initiated: proposed;
/// proposed and counter_proposed: countering; the terminal states as named).
messages::negotiation_status status_of(seed_state x);

/// Whether `x` is accepted, rejected or expired.
bool is_terminal(seed_state x);

std::string to_string(seed_state x);
bool from_string(const std::string& text, seed_state& x);

} // namespace parley::actors::store
