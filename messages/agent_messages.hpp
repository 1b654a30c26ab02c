#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/fields.hpp"
#include "messages/proposal.hpp"

namespace parley::messages {

// The four agent message types (docs/protocols/bilateral.md, "Parties and messages").
// Every one carries a `message_id` unique per sender, so that a replayed message is
// recognised and ignored.

/// Opens a negotiation's bargaining: the initiator's proposal, delivered to the
/// responder. Received mid-negotiation it counts as a counter
/// (docs/protocols/bilateral.md, "Counter").
struct agent_proposal {
  std::string message_id;
  std::string negotiation_id;
  std::string from_agent;
  messages::proposal proposal;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_proposal& x) {
  return f(caf::meta::type_name("agent_proposal"), field("message_id", x.message_id),
           field("negotiation_id", x.negotiation_id), field("from_agent", x.from_agent),
           field("proposal", x.proposal));
}

/// A counter-proposal, with the reason for it.
struct agent_counter {
  std::string message_id;
  std::string negotiation_id;
  std::string from_agent;
  messages::proposal proposal;
  std::string reason;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_counter& x) {
  return f(caf::meta::type_name("agent_counter"), field("message_id", x.message_id),
           field("negotiation_id", x.negotiation_id), field("from_agent", x.from_agent),
           field("proposal", x.proposal), optional_field("reason", x.reason));
}

/// Accepts the negotiation's current proposal.
struct agent_accept {
  std::string message_id;
  std::string negotiation_id;
  std::string from_agent;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_accept& x) {
  return f(caf::meta::type_name("agent_accept"), field("message_id", x.message_id),
           field("negotiation_id", x.negotiation_id),
           field("from_agent", x.from_agent));
}

/// Ends the negotiation without agreement.
struct agent_reject {
  std::string message_id;
  std::string negotiation_id;
  std::string from_agent;
  std::string reason;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_reject& x) {
  return f(caf::meta::type_name("agent_reject"), field("message_id", x.message_id),
           field("negotiation_id", x.negotiation_id), field("from_agent", x.from_agent),
           optional_field("reason", x.reason));
}

/// What a negotiation tells the party it hands an offer to, in the same
/// message as the offer (`agent_proposal` or `agent_counter`, then this), so
/// that a rule or script agent keeps no memory of its negotiations and needs
/// no word of their expiry.
struct answer_terms {
  /// Rounds so far, the offer included (1 for the opening proposal).
  std::int32_t round = 1;
  /// The party's own latest amount, if it made an offer.
  caf::optional<std::int64_t> my_last_amount;
  /// When the negotiation expires unless answered, in Unix milliseconds.
  std::int64_t answer_by_ms = 0;
  /// The other party's first offer, when the offer handed on is not it:
  /// what a tit-for-tat strategy measures the other's concession from.
  caf::optional<proposal> their_first;
  /// How many different offers each party made so far (the one handed on
  /// included): what the MiCRO strategy concedes by.
  std::int32_t my_distinct_offers = 0;
  std::int32_t their_distinct_offers = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, answer_terms& x) {
  return f(caf::meta::type_name("answer_terms"), field("round", x.round),
           optional_field("my_last_amount", x.my_last_amount),
           field("answer_by_ms", x.answer_by_ms),
           omittable_field("their_first", x.their_first),
           optional_field("my_distinct_offers", x.my_distinct_offers),
           optional_field("their_distinct_offers", x.their_distinct_offers));
}

} // namespace parley::messages
