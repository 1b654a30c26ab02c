#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"
#include "messages/proposal.hpp"

namespace parley::actors::agent {

/// What an agent knows when an offer (a proposal or a counter) reaches it.
struct offer_context {
  std::string negotiation_id;
  /// The offer to answer.
  messages::proposal incoming;
  /// The amount of this agent's latest offer in the negotiation, if it
  /// made one.
  std::optional<std::int64_t> my_last_amount;
  /// Rounds so far, the incoming offer included (1 for an opening proposal).
  std::int32_t round = 1;
  /// The negotiation's round limit: a counter when `round >= max_rounds`
  /// expires the negotiation, so that is the agent's last chance to settle.
  std::int32_t max_rounds = 5;
  /// The other party's first offer, when `incoming` is a later one.
  std::optional<messages::proposal> their_first;
  /// How many different offers each party made so far, `incoming` included.
  std::int32_t my_distinct_offers = 0;
  std::int32_t their_distinct_offers = 0;
};

/// Returns a decision to `action` (not a counter: no proposal) for `reason`.
inline messages::decision decision_of(messages::reply_action action,
                                      std::string reason) {
  messages::decision result;
  result.action = action;
  result.reason = std::move(reason);
  return result;
}

/// What a brain knows of `incoming`, an offer handed on with `terms`.
inline offer_context context_of(const std::string& negotiation_id,
                                const messages::proposal& incoming,
                                const messages::answer_terms& terms,
                                std::int32_t max_rounds) {
  offer_context result;
  result.negotiation_id = negotiation_id;
  result.incoming = incoming;
  if (terms.my_last_amount)
    result.my_last_amount = *terms.my_last_amount;
  result.round = terms.round;
  result.max_rounds = max_rounds;
  if (terms.their_first)
    result.their_first = *terms.their_first;
  result.my_distinct_offers = terms.my_distinct_offers;
  result.their_distinct_offers = terms.their_distinct_offers;
  return result;
}

/// Decides how an agent answers offers. Pure: no CAF, no clock, no I/O.
class brain {
public:
  virtual ~brain() = default;

  /// Decides how to answer `offer`. An asynchronous brain (the LLM brain)
  /// returns nullopt and delivers the decision later to its agent as a
  /// `deferred_reply` message.
  virtual std::optional<messages::decision> decide(const offer_context& offer) = 0;

  /// The profile the agent votes and bids from by itself (rule agents do:
  /// docs/protocols/ballots-and-auctions.md, "How rule agents vote and bid"), or null
  /// when it waits to be told.
  virtual const messages::agent_profile* voter() const noexcept { return nullptr; }
};

/// Builds the brain `spec` describes for an agent with `profile`.
std::unique_ptr<brain> make_brain(const messages::brain_spec& spec,
                                  const messages::agent_profile& profile);

} // namespace parley::actors::agent
