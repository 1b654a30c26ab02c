#pragma once

#include <optional>
#include <string>
#include <vector>

#include "messages/agent_messages.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::actors::negotiation {

/// What makes a move the same move as the one that first used its message id
/// (no CAF): its sender, its action, the proposal of a propose or counter and
/// the reason of a counter or reject. An accept carries neither: it takes the
/// current proposal. Derived alike from an agent message and from the round
/// it made, so that a replay is recognised from a stored record too.
struct move_fingerprint {
  std::string from;
  messages::round_action action = messages::round_action::counter;
  std::optional<messages::proposal> proposal;
  std::string reason;
};

/// The fingerprint of an agent message. An agent_proposal's action is
/// `propose` (the opening; the rules take one sent later as a counter).
move_fingerprint fingerprint_of(const messages::agent_proposal& x);
move_fingerprint fingerprint_of(const messages::agent_counter& x);
move_fingerprint fingerprint_of(const messages::agent_accept& x);
move_fingerprint fingerprint_of(const messages::agent_reject& x);

/// The fingerprint of the move that made `x`.
move_fingerprint fingerprint_of(const messages::negotiation_round& x);

/// What `again` changes of `first`, by name, in this order: `from`,
/// `action`, `proposal` (one has a proposal and the other not) or the
/// proposal's fields that differ (`proposal.amount`, `proposal.currency`,
/// `proposal.escrow`, `proposal.description`, `proposal.terms`), `reason`.
/// Empty: the same move.
std::vector<std::string> differences(const move_fingerprint& first,
                                     const move_fingerprint& again);

/// "Message id m-1 was already used for another move (from, action differ)":
/// why a move reusing `message_id` with `differs` (not empty) is refused.
std::string reuse_text(const std::string& message_id,
                       const std::vector<std::string>& differs);

/// The round of `record` that `message_id` made, or null.
const messages::negotiation_round* round_of(const messages::negotiation_record& record,
                                            const std::string& message_id);

/// The record as it was right after the move `message_id` (the round that
/// carries it), rebuilt from `later`, a record of the same negotiation at
/// that move or after it: its rounds up to that one, and the status, current
/// and final proposal, convergence, update time and reason those rounds
/// gave it (as the rules did). None when no round carries `message_id`.
std::optional<messages::negotiation_record>
record_after(const messages::negotiation_record& later, const std::string& message_id);

} // namespace parley::actors::negotiation
